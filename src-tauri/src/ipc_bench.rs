//! The measurement behind the choice of a Channel per subscription over
//! window events (`make bench-ipc`; only in builds with the `ipc-bench`
//! feature). Sends `n` messages shaped like a content_delta, each stamped
//! with its send time, by the way asked, in a burst or paced; the page
//! records arrival times.

use serde_json::{json, Value};
use std::time::{SystemTime, UNIX_EPOCH};
use tauri::ipc::Channel;
use tauri::{Emitter, WebviewWindow};

fn now_us() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64() * 1e6).unwrap_or(0.0)
}

#[tauri::command]
pub async fn ipc_bench(
    window: WebviewWindow,
    via: String,
    n: u32,
    interval_us: u64,
    on_event: Channel<Value>,
) -> Result<(), String> {
    for i in 0..n {
        if interval_us > 0 {
            // Paced like a stream; blocking one worker is fine in a benchmark.
            std::thread::sleep(std::time::Duration::from_micros(interval_us));
        }
        let payload = json!({
            "kind": "event",
            "event": {"event": "content_delta", "context_id": "ctx-bench", "message_id": 7, "sequence": i,
                      "delta": " token", "is_final": false},
            "sent_us": now_us(),
        });
        match via.as_str() {
            "channel" => on_event.send(payload).map_err(|e| e.to_string())?,
            "event" => window.emit("ipc-bench", payload).map_err(|e| e.to_string())?,
            other => return Err(format!("unknown way {other:?}")),
        }
    }
    Ok(())
}
