//! Commands from a client (the window, a browser, the CLI) and the DTOs that
//! answer them. The commands themselves are defined once, in `list.rs`;
//! progress arrives as events (see [`crate::event`]).

pub use crate::context::{BranchLabel, BranchSummary, ContextSnapshot, ContextSummary, ContextUsage};
pub use crate::files::{FileInPlay, FileState, OverwriteReason, OverwriteRisk, WritePreview};
use crate::ids::MessageId;
use crate::message::{ImageMode, ImageSource, MessageType, Role};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[macro_use]
mod list;
#[macro_use]
mod list_more;
pub(crate) mod surface;
pub use surface::{surface, CommandInfo, FieldInfo};

/// The wire tag of a list entry: its handler's name unless it gives one.
macro_rules! command_tag {
    ($handler:ident) => {
        stringify!($handler)
    };
    ($handler:ident $tag:literal) => {
        $tag
    };
}

/// Makes the enum and the description of every command from the list.
macro_rules! define_commands {
    ($(
        $(#[doc = $doc:literal])*
        $handler:ident $(= $tag:literal)? : $variant:ident $({ $( $(#[$fattr:meta])* $field:ident : $fty:ty, )* })? => $answer:ty;
    )*) => {
        /// A command from a client (the window, a browser, the CLI); each is
        /// answered by the type its entry in `command/list.rs` names.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
        #[serde(tag = "type", rename_all = "snake_case")]
        pub enum Command {
            $( $(#[doc = $doc])* $variant $({ $( $(#[$fattr])* $field: $fty, )* })?, )*
        }

        impl Command {
            /// The command's `type` on the wire.
            pub fn tag(&self) -> &'static str {
                match self {
                    $( Command::$variant { .. } => command_tag!($handler $($tag)?), )*
                }
            }
        }

        /// Every command: its tag, handler, documentation, fields and answer,
        /// in the list's order.
        fn describe() -> Vec<CommandInfo> {
            vec![$(
                CommandInfo {
                    tag: command_tag!($handler $($tag)?),
                    handler: stringify!($handler),
                    docs: vec![$($doc),*],
                    fields: vec![$($( FieldInfo { name: stringify!($field), ts: surface::ts_name::<$fty>() }, )*)?],
                    answer: surface::ts_name::<$answer>(),
                },
            )*]
        }
    };
}

with_commands!(define_commands);

/// The user's answer to an approval request. Anything but an explicit
/// approval is a denial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    Approve,
    #[default]
    Deny,
    /// Approves every call waiting for an answer.
    ApproveAll,
    /// Approves this call even though it writes over a file changed
    /// outside Braid since the agent read it.
    ApproveOverwrite,
    /// Approves this call and every later call of the same tool in this
    /// conversation (not for tools on the always-ask list).
    AlwaysAllow,
}

/// A message as a client submits it: no id, no timestamp (the core assigns
/// both).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct NewMessage {
    pub body: MessageType,
    /// Makes the model call this tool in its first answer (the composer's
    /// `/tool name …`); it must be a tool the mode offers.
    #[serde(default)]
    #[ts(optional)]
    pub force_tool: Option<String>,
    /// Images sent with the message (from `store_image`); each becomes an
    /// Image message just before it, read by vision or OCR first.
    #[serde(default)]
    pub images: Vec<ImageAttachment>,
}

impl NewMessage {
    /// What a user types: text alone, no forced tool, no images.
    pub fn user_text(text: &str) -> NewMessage {
        NewMessage { body: MessageType::text(Role::User, text), force_tool: None, images: Vec::new() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageAttachment {
    pub source: ImageSource,
    #[serde(default)]
    pub mode: ImageMode,
}

/// An image's bytes, Base64 encoded, for showing it full size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ImageData {
    pub media_type: String,
    pub data: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SendReceipt {
    pub message_id: MessageId,
    /// True when the context was busy and the message waits in its queue.
    pub queued: bool,
}
