//! A team member's turn, carried out: the facts its request is built from
//! (a CLI member needs no model, only the conversation and its
//! instruction file), and its CLI run.

use super::{ContextActor, Input};
use crate::agent_task::{self, AgentRun, CopyPlace};
use braid_core::fit::PreparedRequest;
use braid_core::machine::{Effect, Event};
use braid_core::prompt;
use braid_protocol::{RequestId, TeamMember, TokenEncoding};
use std::path::{Path, PathBuf};

/// The most of an instruction file a member is given.
const INSTRUCTION_FILE_LIMIT: u64 = 256 * 1024;

impl ContextActor {
    /// A CLI member's facts: the conversation, its instruction file.
    pub(super) fn prepare_agent(&mut self, request_id: RequestId, member: &TeamMember) {
        let prepared = PreparedRequest {
            model: member.agent.label(),
            encoding: TokenEncoding::O200k,
            window: u32::MAX,
            max_output: 0,
            model_max_output: 0,
            sees_images: false,
            calls_tools: false,
            counted_by_model: false,
            configured_prompt: None,
            branch_prompt: None,
            personal: None,
            messages: prompt::request_messages(&self.ctx.conversation),
            pinned_summary: None,
            kept: Vec::new(),
            changed_files: Vec::new(),
            workspace: None,
            member_file: self.member_file(member),
        };
        let event = Event::RequestPrepared { request_id, prepared: Box::new(prepared) };
        let _ = self.mailbox.send(Input::Event(event));
    }

    /// The member's instruction file, read afresh for each turn (inside
    /// the workspace only; a file that cannot be read is logged and left
    /// out rather than stopping the chain).
    pub(super) fn member_file(&self, member: &TeamMember) -> Option<String> {
        use std::io::Read;
        let name = member.instruction_file.as_deref().filter(|f| !f.trim().is_empty())?;
        let read = braid_workspace::paths::confine(Path::new(self.ctx.folder()), name)
            .map_err(|e| e.to_string())
            .and_then(|path| std::fs::File::open(path).map_err(|e| e.to_string()))
            .and_then(|file| {
                let mut text = String::new();
                file.take(INSTRUCTION_FILE_LIMIT).read_to_string(&mut text).map(|_| text).map_err(|e| e.to_string())
            });
        match read {
            Ok(text) => Some(text),
            Err(error) => {
                tracing::warn!(context = %self.ctx.meta.id, member = %member.name, file = name, %error,
                    "instruction file left out");
                None
            }
        }
    }

    /// `RunAgent`: the member's CLI runs; the machine hears it as a
    /// request, and `AbortLlmRequest` stops it.
    pub(super) fn run_agent(&mut self, effect: Effect) {
        let Effect::RunAgent { request_id, member, mut system, mut prompt, warning } = effect else { return };
        if let Some(system) = system.as_mut() {
            self.hide_secrets(system);
        }
        self.hide_secrets(&mut prompt);
        if let Some(warning) = warning {
            tracing::warn!(context = %self.ctx.meta.id, member = %member.name, "{warning}");
        }
        if let Some(old) = self.llm.take() {
            old.handle.abort();
        }
        let workdir = PathBuf::from(self.ctx.folder());
        // No copy of a folder as broad as the home folder.
        let copy = (member.isolated && !self.shared.config.is_broad(&workdir)).then(|| CopyPlace {
            checkpoints: self.shared.checkpoints.clone(),
            dir: crate::isolation::copies_dir(&self.shared.config.db_path),
            name: format!("{}-{}", self.ctx.meta.id.0, request_id.0),
        });
        let run = AgentRun { request_id, member: *member, system, prompt, workdir, copy };
        let watch = self.ctx.state.request.as_ref().and_then(|r| self.watch(r.response_id));
        self.llm = Some(agent_task::spawn(run, self.reports(), watch));
    }
}
