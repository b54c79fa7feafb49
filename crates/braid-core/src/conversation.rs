//! A context's messages: one pool, several branches. A branch is an ordered
//! list of ids into the pool, so forking copies ids, never messages.

use braid_protocol::{BranchId, Message, MessageId, MessageKind, MessageType, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod apply;
mod edit;
pub use apply::Undo;
pub use edit::BranchDeletion;

/// Per-branch settings for the message pipeline (which processors run).
/// Empty means the context's default pipeline.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineConfig {
    pub disabled_processors: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Branch {
    pub id: BranchId,
    pub name: String,
    pub parent: Option<BranchId>,
    /// The last message shared with the parent.
    pub fork_point: Option<MessageId>,
    pub message_ids: Vec<MessageId>,
    /// Replaces the context's system prompt on this branch only.
    pub system_prompt: Option<String>,
    pub pipeline: Option<PipelineConfig>,
    /// Answers on this branch come from this model; `None`: the
    /// conversation's.
    #[serde(default)]
    pub model: Option<braid_protocol::ModelChoice>,
    /// Its own copy of the workspace, where its tools work while it is in
    /// use; `None`: the conversation's folder.
    #[serde(default)]
    pub folder: Option<String>,
    pub created_at: Timestamp,
}

impl Branch {
    /// What the branch is called where it is named: its name, or for an
    /// unnamed one (a version made by an edit or an answer again) its id.
    pub fn label(&self) -> String {
        braid_protocol::branch_label(&self.id, &self.name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConversationError {
    #[error("branch {0} does not exist")]
    NoSuchBranch(BranchId),
    #[error("message {message} is not on branch {branch}")]
    NotOnBranch { message: MessageId, branch: BranchId },
    #[error("message {0} is already in the pool")]
    DuplicateMessage(MessageId),
    #[error("message {0} is not in the pool")]
    NoSuchMessage(MessageId),
    #[error("branch {0} already exists")]
    DuplicateBranch(BranchId),
    #[error("the tool calls of message {0} are still running; fork once they finish, or at an earlier message")]
    OpenToolCalls(MessageId),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pool: BTreeMap<MessageId, Message>,
    branches: BTreeMap<BranchId, Branch>,
    active: BranchId,
}

impl Conversation {
    /// A conversation with an empty `main` branch.
    pub fn new(now: Timestamp) -> Conversation {
        let main = Branch {
            id: BranchId::main(),
            name: "main".to_owned(),
            parent: None,
            fork_point: None,
            message_ids: Vec::new(),
            system_prompt: None,
            pipeline: None,
            model: None,
            folder: None,
            created_at: now,
        };
        Conversation {
            pool: BTreeMap::new(),
            branches: BTreeMap::from([(main.id.clone(), main)]),
            active: BranchId::main(),
        }
    }

    /// Rebuilds a conversation from stored parts (no checks: run
    /// [`crate::invariants::check_conversation`] when in doubt).
    pub fn from_parts(messages: Vec<Message>, branches: Vec<Branch>, active: BranchId) -> Conversation {
        Conversation {
            pool: messages.into_iter().map(|m| (m.id, m)).collect(),
            branches: branches.into_iter().map(|b| (b.id.clone(), b)).collect(),
            active,
        }
    }

    /// A number no branch id `b<n>` uses yet (ids are handed out by the
    /// state machine; this only guards states stored before it did).
    pub fn free_branch_number(&self) -> u64 {
        self.branches
            .keys()
            .filter_map(|b| b.0.strip_prefix('b').and_then(|n| n.parse::<u64>().ok()))
            .max()
            .map_or(1, |n| n + 1)
    }

    pub fn active_branch(&self) -> &BranchId {
        &self.active
    }

    /// The active branch's own copy of the workspace, if it has one.
    pub fn active_folder(&self) -> Option<&str> {
        self.branch(&self.active).and_then(|b| b.folder.as_deref())
    }

    pub fn branch(&self, id: &BranchId) -> Option<&Branch> {
        self.branches.get(id)
    }

    pub fn branches(&self) -> impl Iterator<Item = &Branch> {
        self.branches.values()
    }

    pub fn message(&self, id: MessageId) -> Option<&Message> {
        self.pool.get(&id)
    }

    /// Whether `id` is a branch-switch record: where the user changed
    /// branches, not content (the graph, versions and file rewind skip it).
    pub fn is_switch(&self, id: MessageId) -> bool {
        self.message(id).is_some_and(|m| {
            matches!(m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::BranchSwitch { .. } })
        })
    }

    /// Every message in the pool, in id order.
    pub fn pool(&self) -> impl ExactSizeIterator<Item = &Message> {
        self.pool.values()
    }

    /// The messages of a branch in order, borrowed from the pool.
    pub fn messages<'a>(&'a self, branch: &BranchId) -> impl Iterator<Item = &'a Message> + 'a {
        self.branches.get(branch).into_iter().flat_map(|b| b.message_ids.iter()).filter_map(|id| self.pool.get(id))
    }

    /// The active branch's messages.
    pub fn active_messages(&self) -> impl Iterator<Item = &Message> {
        self.messages(&self.active)
    }

    /// The active branch's messages of one kind, without cloning the pool.
    pub fn of_kind(&self, kind: MessageKind) -> impl Iterator<Item = &Message> {
        self.active_messages().filter(move |m| m.body.kind() == kind)
    }

    /// Adds a message to the pool and appends it to the active branch.
    pub fn append(&mut self, message: Message) -> Result<(), ConversationError> {
        if self.pool.contains_key(&message.id) {
            return Err(ConversationError::DuplicateMessage(message.id));
        }
        let branch =
            self.branches.get_mut(&self.active).ok_or_else(|| ConversationError::NoSuchBranch(self.active.clone()))?;
        branch.message_ids.push(message.id);
        self.pool.insert(message.id, message);
        Ok(())
    }

    /// Replaces a message's body (e.g. a tool call's approval changed).
    pub fn update(&mut self, message: Message) -> Result<(), ConversationError> {
        match self.pool.get_mut(&message.id) {
            Some(slot) => {
                *slot = message;
                Ok(())
            }
            None => Err(ConversationError::NoSuchMessage(message.id)),
        }
    }

    /// The branch a fork of `source` after `at` would be: it shares every
    /// message up to and including `at`. Its id is left empty: the state
    /// machine hands ids out when it creates the branch (`CreateBranch`).
    pub fn fork(
        &self,
        source: &BranchId,
        at: MessageId,
        name: &str,
        system_prompt: Option<String>,
        now: Timestamp,
    ) -> Result<Branch, ConversationError> {
        let (name, parent, mut pos) = self.fork_point(source, at, name)?;
        // A tool request and its results are one unit: forking at the
        // request or at one of its results takes all its results along, or
        // the fork would hold calls that are never answered.
        let body = |i: usize| parent.message_ids.get(i).and_then(|id| self.pool.get(id)).map(|m| &m.body);
        let mut start = pos;
        while matches!(body(start), Some(MessageType::ToolResult { .. })) && start > 0 {
            start -= 1;
        }
        if let Some(MessageType::ToolRequest { calls, .. }) = body(start) {
            let answers = |i: usize| match body(i) {
                Some(MessageType::ToolResult { request_id, .. }) => calls.iter().any(|c| &c.id == request_id),
                _ => false,
            };
            let mut end = start;
            while answers(end + 1) {
                end += 1;
            }
            if end - start < calls.len() {
                return Err(ConversationError::OpenToolCalls(parent.message_ids[start]));
            }
            pos = pos.max(end);
        }
        let at = parent.message_ids[pos];
        Ok(Branch {
            id: BranchId(String::new()),
            name: name.to_owned(),
            parent: Some(source.clone()),
            fork_point: Some(at),
            message_ids: parent.message_ids[..=pos].to_vec(),
            system_prompt,
            pipeline: parent.pipeline.clone(),
            model: parent.model.clone(),
            // A fork works in the folder until it is given a copy.
            folder: None,
            created_at: now,
        })
    }

    /// Adds a branch the state machine created.
    pub fn add_branch(&mut self, branch: Branch) -> Result<(), ConversationError> {
        if self.branches.contains_key(&branch.id) {
            return Err(ConversationError::DuplicateBranch(branch.id));
        }
        if let Some(missing) = branch.message_ids.iter().find(|id| !self.pool.contains_key(id)) {
            return Err(ConversationError::NoSuchMessage(*missing));
        }
        self.branches.insert(branch.id.clone(), branch);
        Ok(())
    }

    /// Makes `to` the active branch. The caller records the switch (the
    /// state machine appends a SystemControl::BranchSwitch).
    pub fn set_active(&mut self, to: &BranchId) -> Result<(), ConversationError> {
        if !self.branches.contains_key(to) {
            return Err(ConversationError::NoSuchBranch(to.clone()));
        }
        self.active = to.clone();
        Ok(())
    }

    /// The branch that contains `message`, preferring the active one.
    pub fn branch_of(&self, message: MessageId) -> Option<&BranchId> {
        let contains = |b: &Branch| b.message_ids.contains(&message);
        if self.branches.get(&self.active).is_some_and(contains) {
            return Some(&self.active);
        }
        self.branches.values().find(|b| contains(b)).map(|b| &b.id)
    }

    /// The system prompt in force on a branch: its own, else main's (the
    /// conversation's prompt, set where there is only one branch), else
    /// `base`.
    pub fn system_prompt<'a>(&'a self, branch: &BranchId, base: Option<&'a str>) -> Option<&'a str> {
        let own = |b: &BranchId| self.branches.get(b).and_then(|b| b.system_prompt.as_deref());
        own(branch).or_else(|| own(&BranchId::main())).or(base)
    }

    pub fn len(&self) -> usize {
        self.pool.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pool.is_empty()
    }

    /// The highest message id in the pool, if any.
    pub fn max_message_id(&self) -> Option<MessageId> {
        self.pool.keys().next_back().copied()
    }
}

/// A short label for a message body, for logs and previews.
pub fn describe(body: &MessageType) -> String {
    match body.plain_text() {
        Some(t) => t.chars().take(60).collect(),
        None => format!("[{}]", body.kind().tag()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use braid_protocol::{Approval, Role, ToolCall, ToolResultStatus};

    fn m(id: u64, body: MessageType) -> Message {
        Message::new(MessageId(id), Timestamp(0), body)
    }

    #[test]
    fn forking_at_a_tool_request_takes_its_results() {
        let mut c = Conversation::new(Timestamp(0));
        let call = ToolCall { id: "c1".into(), name: "x".into(), arguments: "{}".into(), approval: Approval::Approved };
        c.append(m(1, MessageType::text(Role::User, "q"))).unwrap();
        c.append(m(2, MessageType::ToolRequest { text: None, calls: vec![call] })).unwrap();
        let result = MessageType::ToolResult {
            request_id: "c1".into(),
            status: ToolResultStatus::Success,
            output: "ok".into(),
            error: None,
            recoverable: false,
            duration_ms: 1,
            finished_at: Timestamp(0),
        };
        c.append(m(3, result)).unwrap();
        c.append(m(4, MessageType::text(Role::Assistant, "done"))).unwrap();
        let branch = c.fork(&BranchId::main(), MessageId(2), "fork", None, Timestamp(1)).unwrap();
        assert_eq!(branch.message_ids, [MessageId(1), MessageId(2), MessageId(3)]);
        assert_eq!(branch.fork_point, Some(MessageId(3)));
        assert_eq!(
            c.fork(&BranchId::main(), MessageId(9), "x", None, Timestamp(1)),
            Err(ConversationError::NotOnBranch { message: MessageId(9), branch: BranchId::main() })
        );
        let mut unnamed = c.fork(&BranchId::main(), MessageId(1), " ", None, Timestamp(1)).unwrap();
        unnamed.id = BranchId("b4".into());
        assert_eq!((unnamed.name.as_str(), unnamed.label().as_str()), ("", "unnamed b4"));
        assert_eq!(c.of_kind(braid_protocol::MessageKind::ToolResult).count(), 1);
    }

    #[test]
    fn a_fork_never_holds_a_call_without_its_result() {
        let mut c = Conversation::new(Timestamp(0));
        let call = |id: &str| ToolCall {
            id: id.into(),
            name: "x".into(),
            arguments: "{}".into(),
            approval: Approval::Approved,
        };
        let result = |id: &str| MessageType::ToolResult {
            request_id: id.into(),
            status: ToolResultStatus::Success,
            output: "ok".into(),
            error: None,
            recoverable: false,
            duration_ms: 1,
            finished_at: Timestamp(0),
        };
        c.append(m(1, MessageType::ToolRequest { text: None, calls: vec![call("a"), call("b")] })).unwrap();
        c.append(m(2, result("a"))).unwrap();
        // "b" still runs: no fork may end inside this round.
        for at in [1, 2] {
            let e = c.fork(&BranchId::main(), MessageId(at), "f", None, Timestamp(1)).unwrap_err();
            assert_eq!(e, ConversationError::OpenToolCalls(MessageId(1)));
        }
        c.append(m(3, result("b"))).unwrap();
        let fork = c.fork(&BranchId::main(), MessageId(2), "f", None, Timestamp(1)).unwrap();
        assert_eq!(fork.message_ids, [MessageId(1), MessageId(2), MessageId(3)], "forking at a result takes the round");
    }
}
