//! An MCP server on stdio built on rmcp's own server side, which speaks
//! the stateless 2026-07-28 protocol (and the older ones): the npm
//! servers the tests use speak only 2025-11-25. `shout` says its `text`
//! in capitals; `grow` adds the tool `extra` and says the list changed
//! on the client's `subscriptions/listen` stream (the only way the
//! stateless protocol tells a client anything unasked). `SHOUT_DESCRIPTION`
//! replaces shout's description; `SHOUT_READ_ONLY` marks it read-only;
//! `START_DELAY_MS` waits that long before it answers.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{RequestContext, SubscriptionContext, SubscriptionSink};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Default)]
struct Server {
    grown: AtomicBool,
    /// The client's listen stream, while it is open.
    sink: Mutex<Option<SubscriptionSink>>,
}

fn tool(name: &str, description: &str) -> Tool {
    let schema = serde_json::json!({"type": "object", "properties": {"text": {"type": "string"}}});
    let serde_json::Value::Object(schema) = schema else { unreachable!("a JSON object") };
    Tool::new(name.to_owned(), description.to_owned(), Arc::new(schema))
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build())
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        *self.sink.lock().unwrap_or_else(PoisonError::into_inner) = Some(context.sink().clone());
        context.cancelled().await;
        Ok(())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // A test may change the description between two starts.
        let shout = std::env::var("SHOUT_DESCRIPTION").unwrap_or_else(|_| "Says the text in capitals".to_owned());
        // A read that takes its time (marked read-only: it runs beside
        // other reads); it answers with when it started and ended.
        let mut nap = tool("nap", "Waits 200 ms, reading nothing");
        nap.annotations = Some(rmcp::model::ToolAnnotations::new().read_only(true));
        let mut shout = tool("shout", &shout);
        // …or have it call itself read-only.
        if std::env::var_os("SHOUT_READ_ONLY").is_some() {
            shout.annotations = Some(rmcp::model::ToolAnnotations::new().read_only(true));
        }
        let mut tools = vec![shout, tool("grow", "Adds the tool extra"), nap];
        if self.grown.load(Ordering::SeqCst) {
            tools.push(tool("extra", "Came with grow"));
        }
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = request.arguments.as_ref().and_then(|a| a.get("text")).and_then(|t| t.as_str()).unwrap_or_default();
        let said = match request.name.as_ref() {
            "grow" => {
                self.grown.store(true, Ordering::SeqCst);
                let sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner).clone();
                match sink {
                    Some(sink) => match sink.notify_tool_list_changed().await {
                        Ok(()) => "grown".to_owned(),
                        Err(e) => format!("grown, but the client was not told: {e}"),
                    },
                    None => "grown, but the client listens to nothing".to_owned(),
                }
            }
            "nap" => {
                let now =
                    || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
                let start = now();
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                format!("{start}-{}", now())
            }
            _ => text.to_uppercase(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(said)]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A test may have servers become ready in an order of its choosing.
    if let Some(ms) = std::env::var("START_DELAY_MS").ok().and_then(|v| v.parse().ok()) {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    let running = Server::default().serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
