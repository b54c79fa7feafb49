//! The breakdown recounted by the model's server, for a model Braid has
//! no tokenizer for whose server counts (llama.cpp's): every part of the
//! system prompt and every tool's definition by the model's own
//! tokenizer, and the whole request as the server builds it from its chat
//! template. What the template adds — roles, separators, the tools as it
//! writes them — is a part of its own, so the parts sum to what the
//! server will read.

use super::{part, prompt_category, prompt_label, PlannedRequest};
use crate::tool_need;
use braid_protocol::{BreakdownCategory as Cat, BreakdownItem, ContextBreakdown};
use std::collections::BTreeMap;

/// `system`: the server's count of each part of `request.system`, in
/// order; `tools`: of each tool's definition; `whole`: of the request.
pub fn recount(b: &mut ContextBreakdown, request: &PlannedRequest, system: &[u32], tools: &[u32], whole: u32) {
    let mut parts: BTreeMap<Cat, braid_protocol::BreakdownPart> = b.parts.drain(..).map(|p| (p.category, p)).collect();
    // The prompt's parts, item by item, and the parts they make up.
    let mut prompt: BTreeMap<Cat, u32> = BTreeMap::new();
    for (s, n) in request.system.iter().zip(system) {
        let cat = prompt_category(s.part);
        *prompt.entry(cat).or_default() += n;
        let label = prompt_label(s.part);
        if let Some(item) = parts.get_mut(&cat).and_then(|p| p.items.iter_mut().find(|i| i.label == label)) {
            item.tokens = *n;
        }
    }
    // The tools' definitions by group, as sent.
    let mut groups: BTreeMap<String, u32> = BTreeMap::new();
    for (t, n) in request.tools.iter().zip(tools) {
        *groups.entry(tool_need::group_of(t).label()).or_default() += n;
    }
    let definitions: u32 = tools.iter().sum();
    for (cat, p) in parts.iter_mut() {
        match cat {
            Cat::BasePrompt | Cat::Instructions | Cat::Team => p.tokens = prompt.get(cat).copied().unwrap_or(0),
            Cat::Tools => {
                p.tokens = prompt.get(cat).copied().unwrap_or(0) + definitions;
                for item in p.items.iter_mut().filter(|i| i.sent) {
                    if let Some(n) = groups.get(&item.label) {
                        item.tokens = *n;
                    }
                }
            }
            _ => {}
        }
    }
    let counted: u32 = parts.values().map(|p| p.tokens).sum();
    if whole > counted {
        let label = "Roles, separators and the tools as the server's chat template writes them".to_owned();
        let item = BreakdownItem { label, tokens: whole - counted, sent: true, message: None, actions: Vec::new() };
        let format = part(&mut parts, Cat::ChatFormat);
        format.tokens = whole - counted;
        format.items = vec![item];
    }
    b.parts = parts.into_values().collect();
    b.total = whole;
    b.estimated = false;
    b.counted_by_server = true;
}
