//! The chat loop: a line from the terminal is a message or a /command;
//! events print as they come (text to stdout, the state line to stderr).

use crate::args::Args;
use braid_protocol::{
    BraidEvent, ContextId, ContextStatus, MessageChange, MessageType, NewMessage, StatusKind, Timestamp,
};
use braid_runtime::{Runtime, RuntimeError, Subscription};
use std::io::Write;
use tokio::io::{AsyncBufReadExt, BufReader};

const HELP: &str = "/new [title]  start a conversation     /list            list conversations
/open ID      open a conversation      /branch NAME     fork from the last message
/branches     list branches            /switch BRANCH   switch branch
/rename-branch NAME  rename the branch in use   /delete-branch BRANCH  delete another branch
/cancel       stop now, keep nothing   /interrupt       stop after this step, keep it
/retry        send the last request again (or continue after a stop or a cut answer)
/tools as_needed|auto|on_request|off|default  which tools go with each message (as_needed: those it calls for)
/temperature N|default               sampling temperature (0 to 2)
/folder [PATH]  the folder the tools work in; with PATH, work there from now
/payload JSON  send a typed payload, e.g. {\"type\":\"file_reference\",\"path\":\"src/main.rs\"}
/workflows    list workflows           /run NAME [key=value …]  run a workflow
/history      recent state transitions /quit            leave (Ctrl+D too)";

fn now() -> Timestamp {
    Timestamp(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64))
}

async fn open(runtime: &Runtime, args: &Args) -> Result<ContextId, RuntimeError> {
    if let Some(id) = &args.context {
        let id = ContextId(id.clone());
        runtime.load_context(&id).await?;
        return Ok(id);
    }
    if args.title.is_none() {
        if let Some(latest) = runtime.list_contexts().await?.into_iter().next() {
            return Ok(latest.id);
        }
    }
    let dir = args.workdir.as_ref().map(|d| d.display().to_string());
    Ok(runtime.create_context(args.title.clone(), dir).await?.id)
}

/// Prints events: text to stdout, the state line to stderr when it changes.
#[derive(Default)]
struct Printer {
    last: Option<ContextStatus>,
    /// Characters of the answer streaming now.
    streamed_chars: u64,
}

impl Printer {
    /// Prints one event; returns the state when it changed kind.
    fn show(&mut self, event: &BraidEvent) -> Option<ContextStatus> {
        let mut out = std::io::stdout();
        match event {
            BraidEvent::ContentDelta(d) => {
                let _ = write!(out, "{}", d.delta);
                let _ = out.flush();
                if d.sequence == 1 {
                    self.streamed_chars = 0;
                }
                self.streamed_chars += d.delta.chars().count() as u64;
                // While streaming, the text is the progress: a state line
                // every ten chunks is enough (counted here: the runtime
                // sends the counts only a few times a second).
                if d.sequence % 10 == 0 {
                    let state = ContextStatus::StreamingLlmResponse {
                        chunks: u32::try_from(d.sequence).unwrap_or(u32::MAX),
                        chars: self.streamed_chars,
                    };
                    eprintln!("[state] {}", state.describe(now()));
                    self.last = Some(state);
                }
                None
            }
            BraidEvent::ContentFinal(_) => {
                let _ = writeln!(out);
                None
            }
            BraidEvent::ContextUpdate(u) => {
                if let Some(m) = &u.message {
                    if m.change == (MessageChange::StatusChanged { status: "discarded".into() }) {
                        let _ = writeln!(out, "\n[partial answer discarded]");
                    }
                }
                if let Some(n) = &u.metadata.notice {
                    eprintln!("[{}] {}", n.code, n.message);
                }
                // The deltas tell the stream's progress.
                let quiet = matches!(
                    (&self.last, &u.current_state),
                    (Some(ContextStatus::StreamingLlmResponse { .. }), ContextStatus::StreamingLlmResponse { .. })
                );
                if !quiet && self.last.as_ref() != Some(&u.current_state) {
                    eprintln!("[state] {}", u.current_state.describe(now()));
                    self.last = Some(u.current_state.clone());
                }
                u.previous_state.as_ref().map(|_| u.current_state.clone())
            }
        }
    }

    /// Shows events until the context rests (Idle or Failed).
    /// Shows events until the turn ends; the state it ended in.
    async fn until_rest(&mut self, sub: &mut Subscription) -> Option<ContextStatus> {
        while let Some(e) = sub.recv().await {
            if let Some(s) = e.ok().and_then(|e| self.show(&e)) {
                if matches!(s.kind(), StatusKind::Idle | StatusKind::Failed) {
                    return Some(s);
                }
            }
        }
        None
    }
}

fn say(text: &str) -> NewMessage {
    NewMessage::user_text(text)
}

pub async fn run(runtime: &Runtime, args: &Args) -> Result<(), RuntimeError> {
    let mut id = open(runtime, args).await?;
    let (snapshot, mut sub) = runtime.subscribe(&id).await?;
    let mut printer = Printer::default();
    if !args.send.is_empty() {
        for text in &args.send {
            runtime.send_message(&id, say(text), false).await?;
            // A turn that failed fails the command (exit status 1), so
            // scripts can tell.
            if let Some(ContextStatus::Failed { message, .. }) = printer.until_rest(&mut sub).await {
                return Err(RuntimeError::Rejected(braid_protocol::WireError::new(
                    braid_protocol::ErrorCode::Provider,
                    format!("the turn failed: {message}"),
                )));
            }
        }
        return Ok(());
    }
    let model =
        snapshot.effective_model.as_ref().map_or("none".to_owned(), |m| format!("{} ({})", m.model, m.provider_name));
    eprintln!("Braid — conversation {} ({}), model: {model}. /help for commands.", id, snapshot.summary.title);
    for m in &snapshot.messages {
        println!("{}", describe(&m.body));
    }
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        tokio::select! {
            line = lines.next_line() => {
                let Ok(Some(line)) = line else { return Ok(()) };
                let line = line.trim();
                if line.is_empty() { continue; }
                match command(runtime, &mut id, &mut sub, line).await {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(e) => eprintln!("[error] {}: {}", e.to_wire().code.as_str(), e),
                }
            }
            event = sub.recv() => match event {
                Some(Ok(e)) => { printer.show(&e); }
                Some(Err(missed)) => eprintln!("[warning] missed {missed} events"),
                None => return Ok(()),
            },
            _ = tokio::signal::ctrl_c() => {
                let busy = runtime.peek(&id).await?.summary.status.is_busy();
                if !busy { return Ok(()); }
                runtime.cancel(&id).await?;
            }
        }
    }
}

fn describe(body: &MessageType) -> String {
    match body {
        MessageType::Text { role, .. } => format!("{:?}: {}", role, body.plain_text().unwrap_or_default()),
        other => format!("[{}]", other.kind().tag()),
    }
}

/// Handles one line; `Ok(true)` means quit.
async fn command(
    runtime: &Runtime,
    id: &mut ContextId,
    sub: &mut Subscription,
    line: &str,
) -> Result<bool, RuntimeError> {
    let (cmd, rest) = line.split_once(' ').map_or((line, ""), |(c, r)| (c, r.trim()));
    match cmd {
        "/quit" | "/exit" => return Ok(true),
        "/help" => eprintln!("{HELP}\n{}\n{}", crate::window::HELP, crate::merge::HELP),
        "/context" => crate::window::context(runtime, id).await?,
        "/compact" => crate::window::compact(runtime, id, rest).await?,
        "/cancel" => runtime.cancel(id).await?,
        "/interrupt" | "/stop" => runtime.interrupt(id).await?,
        "/retry" | "/continue" => runtime.retry(id).await?,
        "/list" => {
            for c in runtime.list_contexts().await? {
                eprintln!("{}  {}  ({} messages, {})", c.id, c.title, c.message_count, c.status.describe(now()));
            }
        }
        "/new" => {
            let title = (!rest.is_empty()).then(|| rest.to_owned());
            *id = runtime.create_context(title, None).await?.id;
            *sub = runtime.subscribe(id).await?.1;
            eprintln!("new conversation {id}");
        }
        "/open" => {
            let next = ContextId(rest.to_owned());
            let (snapshot, s) = runtime.subscribe(&next).await?;
            *id = next;
            *sub = s;
            for m in &snapshot.messages {
                println!("{}", describe(&m.body));
            }
        }
        "/branches" => {
            let snap = runtime.peek(id).await?;
            for b in snap.branches {
                let mark = if b.id == snap.active_branch { "*" } else { " " };
                eprintln!("{mark} {}  {}  ({} messages)", b.id, b.label(), b.message_count);
            }
        }
        "/branch" => {
            let snap = runtime.load_context(id).await?;
            let Some(last) = snap.messages.last() else {
                return Err(RuntimeError::InvalidInput("there is no message to fork from yet".into()));
            };
            let name = if rest.is_empty() { "branch" } else { rest };
            let b = runtime.create_branch(id, last.id, name.to_owned(), None).await?;
            eprintln!("created branch {b}; /switch {b} to use it");
        }
        "/switch" => runtime.switch_branch(id, braid_protocol::BranchId(rest.to_owned())).await?,
        "/rename-branch" => {
            let active = runtime.peek(id).await?.active_branch;
            runtime.edit_branch(id, active, braid_runtime::BranchEdit::Rename(rest.to_owned())).await?;
        }
        "/delete-branch" => {
            runtime
                .edit_branch(id, braid_protocol::BranchId(rest.to_owned()), braid_runtime::BranchEdit::Delete)
                .await?;
            eprintln!("deleted branch {rest}");
        }
        "/merge" => crate::merge::merge(runtime, id, rest).await?,
        "/undo-merge" => crate::merge::undo_last(runtime, id).await?,
        "/tools" | "/temperature" => {
            let mut g = runtime.peek(id).await?.generation;
            match (cmd, rest) {
                ("/tools", "default") => g.tool_use = None,
                ("/tools", "as_needed") => g.tool_use = Some(braid_protocol::ToolUse::AsNeeded),
                ("/tools", "auto") => g.tool_use = Some(braid_protocol::ToolUse::Auto),
                ("/tools", "on_request") => g.tool_use = Some(braid_protocol::ToolUse::OnRequest),
                ("/tools", "off") => g.tool_use = Some(braid_protocol::ToolUse::Off),
                ("/temperature", "default") => g.temperature = None,
                ("/temperature", t) => {
                    let t = t.parse().map_err(|_| RuntimeError::InvalidInput(format!("{t:?} is not a number")))?;
                    g.temperature = Some(t);
                }
                _ => return Err(RuntimeError::InvalidInput(format!("{cmd} {rest}: see /help"))),
            }
            runtime.set_generation(id, g).await?;
            let now = runtime.peek(id).await?;
            eprintln!(
                "tools: {}, temperature: {}",
                now.tool_use.as_str(),
                now.generation.temperature.map_or("model default".to_owned(), |t| t.to_string())
            );
        }
        "/folder" => {
            let folder = if rest.is_empty() {
                runtime.peek(id).await?.summary.working_dir
            } else {
                runtime.set_working_dir(id, rest).await?.working_dir
            };
            eprintln!("folder: {folder}");
        }
        "/payload" => {
            let payload: braid_protocol::Payload = serde_json::from_str(rest)
                .map_err(|e| RuntimeError::InvalidInput(format!("not a valid payload: {e}")))?;
            let request = braid_protocol::SendMessageRequest {
                context_id: id.clone(),
                payload,
                client_metadata: None,
                queue_if_busy: true,
            };
            let receipt = runtime.send_payload(request).await?;
            if receipt.queued {
                eprintln!("[queued] sent when the current answer finishes");
            }
        }
        "/workflows" => {
            let list = runtime.list_workflows(id).await?;
            for w in &list.workflows {
                let params: Vec<&str> = w.parameters.iter().map(|p| p.name.as_str()).collect();
                eprintln!("/run {} {}  {} ({})", w.name, params.join(" "), w.description, w.origin);
            }
            for p in &list.problems {
                eprintln!("not read: {p}");
            }
        }
        "/run" => {
            let mut words = rest.split_whitespace();
            let name = words.next().unwrap_or_default();
            let arguments = words
                .map(|w| w.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
                .collect::<Option<_>>()
                .ok_or_else(|| RuntimeError::InvalidInput("arguments are key=value".to_owned()))?;
            runtime.run_workflow(id, name, arguments).await?;
        }
        "/history" => {
            for r in runtime.transition_history(id).await? {
                eprintln!("{} {:>20} {:?} -> {:?}", r.at.0, r.event, r.from, r.to);
            }
        }
        c if c.starts_with('/') => {
            return Err(RuntimeError::InvalidInput(format!("unknown command {c}; /help lists them")))
        }
        _ => {
            let receipt = runtime.send_message(id, say(line), true).await?;
            if receipt.queued {
                eprintln!("[queued] sent when the current answer finishes");
            }
        }
    }
    Ok(false)
}
