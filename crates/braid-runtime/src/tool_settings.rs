//! A conversation's tool settings: the approval policy and the sandbox
//! its commands run in, each from the next call on (the core keeps them).

use crate::{Runtime, RuntimeError};
use braid_core::machine::Event;
use braid_protocol::{AgentRole, ContextId, Sandbox, ToolApprovalPolicy, ToolSettings};

impl Runtime {
    /// The approval policy (and always-ask list) from the next call on.
    pub async fn set_tool_policy(
        &self,
        id: &ContextId,
        policy: ToolApprovalPolicy,
        always_ask: Option<Vec<String>>,
    ) -> Result<ToolSettings, RuntimeError> {
        self.command(id, Event::SetToolPolicy { policy, always_ask }).await?;
        Ok(self.peek(id).await?.tools)
    }

    /// Where `run_command` may write and whether it may use the network,
    /// from the next command on.
    pub async fn set_sandbox(&self, id: &ContextId, sandbox: Sandbox) -> Result<ToolSettings, RuntimeError> {
        self.command(id, Event::SetSandbox { sandbox }).await?;
        Ok(self.peek(id).await?.tools)
    }

    /// Assistant or Planner (plans with read tools only), from the next
    /// request on.
    pub async fn set_role(&self, id: &ContextId, role: AgentRole) -> Result<ToolSettings, RuntimeError> {
        self.command(id, Event::SetRole { role }).await?;
        Ok(self.peek(id).await?.tools)
    }
}
