//! The model servers already running on this machine (llama.cpp, Ollama,
//! LM Studio), found for the first-run screen.

use braid_llm::catalogue::list_models;
use braid_protocol::{LocalServer, ProviderKind};
use std::time::Duration;

/// How long a probe of a local port may take: detection runs while the
/// first-run screen opens. A closed port fails at once; a server that is
/// there but busy (a 2-core machine running a model, a browser and Braid)
/// took over 700 ms to list its models in a CI run and was missed.
const PROBE_TIMEOUT: Duration = Duration::from_millis(2500);

/// The usual ports of local OpenAI-compatible servers, probed in parallel.
const LOCAL_PORTS: &[(u16, &str, &str)] =
    &[(8089, "llama.cpp", "/v1"), (8080, "llama.cpp", "/v1"), (11434, "Ollama", "/v1"), (1234, "LM Studio", "/v1")];

/// The usual ports, and those the user names in `BRAID_LOCAL_PORTS`
/// (`8000,5001`: a llama.cpp or vLLM server started on a port of its own).
fn ports() -> Vec<(u16, &'static str, &'static str)> {
    let mut ports = LOCAL_PORTS.to_vec();
    let named = std::env::var("BRAID_LOCAL_PORTS").unwrap_or_default();
    for port in named.split(',').filter_map(|p| p.trim().parse::<u16>().ok()) {
        if !ports.iter().any(|(p, ..)| *p == port) {
            ports.push((port, "llama.cpp", "/v1"));
        }
    }
    ports
}

pub async fn detect_local_servers() -> Vec<LocalServer> {
    let probes = ports().into_iter().map(|(port, name, path)| async move {
        let base_url = format!("http://127.0.0.1:{port}{path}");
        let listed =
            tokio::time::timeout(PROBE_TIMEOUT, list_models(ProviderKind::OpenAiCompatible, &base_url, None, name))
                .await;
        match listed {
            Ok(Ok(models)) => Some(LocalServer { name: name.to_owned(), base_url, models }),
            _ => None,
        }
    });
    futures::future::join_all(probes).await.into_iter().flatten().collect()
}
