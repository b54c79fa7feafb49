//! An MCP server on stdio built on rmcp's own server side, which speaks
//! the stateless 2026-07-28 protocol (and the older ones): the npm
//! servers the tests use speak only 2025-11-25. One tool, `shout`, says
//! its `text` in capitals.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use std::sync::Arc;

struct Shout;

impl ServerHandler for Shout {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"]
        });
        let serde_json::Value::Object(schema) = schema else { unreachable!("a JSON object") };
        Ok(ListToolsResult::with_all_items(vec![Tool::new("shout", "Says the text in capitals", Arc::new(schema))]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = request.arguments.as_ref().and_then(|a| a.get("text")).and_then(|t| t.as_str()).unwrap_or_default();
        Ok(CallToolResult::success(vec![ContentBlock::text(text.to_uppercase())]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Shout.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
