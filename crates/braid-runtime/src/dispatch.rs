//! One entry point for every wire [`Command`]: shells (the HTTP server, the
//! desktop app) parse a command, call [`Runtime::execute`], and send back
//! the JSON answer or the `{code, message}` error. No shell holds logic.
//!
//! Both the [`Handlers`] trait and `execute` are made from the protocol's
//! one list of commands (`braid_protocol::with_commands!`), so a command
//! added there cannot be forgotten here: the compiler asks for its handler,
//! with the type it must answer.

use crate::{Runtime, RuntimeError};
use braid_protocol::{Command, WireError};
use serde_json::Value;

macro_rules! handlers_and_execute {
    ($(
        $(#[doc = $doc:literal])*
        $handler:ident $(= $tag:literal)? : $variant:ident $({ $( $(#[$fattr:meta])* $field:ident : $fty:ty, )* })? => $answer:ty;
    )*) => {
        /// What the runtime does for each command, with the command's own
        /// fields, answered by the type the protocol's list names.
        pub trait Handlers {
            $(
                $(#[doc = $doc])*
                fn $handler(&self $($(, $field: $fty)*)?)
                    -> impl std::future::Future<Output = Result<$answer, RuntimeError>> + Send;
            )*
        }

        impl Runtime {
            /// Runs one command; the answer is the JSON form of the type its
            /// entry names (`null` for `()`).
            pub async fn execute(&self, command: Command) -> Result<Value, WireError> {
                match command {
                    $(
                        Command::$variant $({ $($field),* })? => {
                            let answer = Handlers::$handler(self $($(, $field)*)?).await.map_err(|e| e.to_wire())?;
                            serde_json::to_value(answer)
                                .map_err(|e| WireError::new(braid_protocol::ErrorCode::Internal, e.to_string()))
                        }
                    )*
                }
            }
        }
    };
}

braid_protocol::with_commands!(handlers_and_execute);
