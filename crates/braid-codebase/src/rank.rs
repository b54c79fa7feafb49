//! The ranked repository map (after Aider's): files are nodes, a file
//! that refers to a name points at the files defining it, PageRank runs
//! over that graph, and each file's rank flows to the definitions its
//! references name. The best definitions, grouped by file, are listed
//! until the token budget is spent.

use crate::index::Index;
use std::collections::{BTreeMap, HashMap};

const DAMPING: f64 = 0.85;
const ITERATIONS: usize = 30;
/// A name defined in more files than this is too common to say much.
const COMMON: usize = 5;

/// Tokens of `text` as the map counts them (about four characters each;
/// the model's own tokenizer is not at hand here).
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The map as text within `budget` tokens.
pub fn repo_map(index: &Index, budget: usize) -> String {
    let paths: Vec<&String> = index.files.keys().collect();
    let mut definers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, f) in index.files.values().enumerate() {
        for d in f.symbols.defs.iter().filter(|d| !d.is_scope_only()) {
            let list = definers.entry(d.name.as_str()).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    // Edges: referrer → definer, by name, with their weights.
    let mut edges: Vec<Vec<(usize, &str, f64)>> = vec![Vec::new(); paths.len()];
    for (i, f) in index.files.values().enumerate() {
        for (name, count) in &f.symbols.refs {
            let Some(ds) = definers.get(name.as_str()) else { continue };
            let common = if ds.len() > COMMON { 0.1 } else { 1.0 };
            for &d in ds.iter().filter(|&&d| d != i) {
                edges[i].push((d, name.as_str(), (*count as f64).sqrt() * common));
            }
        }
    }
    let rank = pagerank(&edges, paths.len());
    let mut def_rank: HashMap<(usize, &str), f64> = HashMap::new();
    for (i, out) in edges.iter().enumerate() {
        let total: f64 = out.iter().map(|e| e.2).sum();
        for &(d, name, w) in out {
            *def_rank.entry((d, name)).or_default() += rank[i] * w / total;
        }
    }
    // Every definition, best first; unranked ones after, by their file.
    let mut defs: Vec<(f64, f64, usize, u32, &str)> = Vec::new();
    for (i, f) in index.files.values().enumerate() {
        for d in f.symbols.defs.iter().filter(|d| !d.is_scope_only()) {
            let r = def_rank.get(&(i, d.name.as_str())).copied().unwrap_or(0.0);
            defs.push((r, rank[i], i, d.line, d.signature.as_str()));
        }
    }
    defs.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)).then(a.3.cmp(&b.3)));
    let mut chosen: BTreeMap<usize, Vec<(u32, &str)>> = BTreeMap::new();
    let mut order: Vec<usize> = Vec::new();
    let mut spent = 0;
    for (_, _, file, line, signature) in defs {
        let mut cost = estimate_tokens(signature) + 2;
        if !chosen.contains_key(&file) {
            cost += estimate_tokens(paths[file]) + 1;
        }
        if spent + cost > budget {
            continue;
        }
        spent += cost;
        if !chosen.contains_key(&file) {
            order.push(file);
        }
        chosen.entry(file).or_default().push((line, signature));
    }
    // Files without definitions that still fit, by rank.
    let mut rest: Vec<usize> = (0..paths.len()).filter(|i| !chosen.contains_key(i)).collect();
    rest.sort_by(|a, b| rank[*b].total_cmp(&rank[*a]).then(a.cmp(b)));
    let mut bare = Vec::new();
    for i in rest {
        let cost = estimate_tokens(paths[i]) + 1;
        if spent + cost > budget {
            break;
        }
        spent += cost;
        bare.push(i);
    }
    let mut out = String::new();
    for file in order {
        out.push_str(paths[file]);
        out.push_str(":\n");
        let mut lines = chosen.remove(&file).unwrap_or_default();
        lines.sort();
        for (line, sig) in lines {
            out.push_str(&format!("  {line}: {sig}\n"));
        }
    }
    for i in bare {
        out.push_str(paths[i]);
        out.push('\n');
    }
    out
}

fn pagerank(edges: &[Vec<(usize, &str, f64)>], n: usize) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let totals: Vec<f64> = edges.iter().map(|out| out.iter().map(|e| e.2).sum()).collect();
    let mut rank = vec![1.0 / n as f64; n];
    for _ in 0..ITERATIONS {
        let dangling: f64 = (0..n).filter(|&i| totals[i] == 0.0).map(|i| rank[i]).sum();
        let base = (1.0 - DAMPING) / n as f64 + DAMPING * dangling / n as f64;
        let mut next = vec![base; n];
        for (i, out) in edges.iter().enumerate() {
            for &(d, _, w) in out {
                next[d] += DAMPING * rank[i] * w / totals[i];
            }
        }
        rank = next;
    }
    rank
}
