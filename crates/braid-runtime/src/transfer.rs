//! Export and import: the core writes and checks the document; here the
//! conversation is read from the store, the images' bytes from the image
//! store, and an import becomes a new conversation (never a change to one
//! that exists).

use crate::{clock, snapshot, Runtime, RuntimeError};
use braid_core::transfer::{self, Branches, ExportedImage, Header};
use braid_core::ContextState;
use braid_protocol::{ContextId, ContextSummary, ExportFormat, ExportedFile};
use braid_store::ContextMeta;

impl Runtime {
    /// `with_secrets`: the user asked for the real values in the file.
    pub async fn export_context(
        &self,
        id: &ContextId,
        format: ExportFormat,
        with_secrets: bool,
    ) -> Result<ExportedFile, RuntimeError> {
        // The store is written before any effect of a step: it is current.
        let loaded = self.shared.lock_store().load_context(id)?;
        let (meta, conversation) = (loaded.meta, loaded.conversation);
        let stem = file_stem(&meta.title);
        // An export leaves the machine as easily as a request: secrets go
        // as placeholders unless the workspace shows them or the user asked.
        let hide = !with_secrets && self.shared.secrets.on_for(std::path::Path::new(&meta.working_dir));
        match format {
            ExportFormat::Markdown { all_branches } => {
                let which = if all_branches { Branches::All } else { Branches::Active };
                let mut text = transfer::markdown(&meta.title, &conversation, which);
                if hide {
                    self.shared.secrets.hide(&mut text);
                }
                Ok(ExportedFile { file_name: format!("{stem}.md"), media_type: "text/markdown".to_owned(), text })
            }
            ExportFormat::Json => {
                let mut images = Vec::new();
                for image in transfer::image_ids(&conversation) {
                    let data = self.shared.images.get(image.clone()).await.map_err(|e| {
                        RuntimeError::InvalidInput(format!("image {image} of this conversation cannot be read: {e}"))
                    })?;
                    images.push(ExportedImage { id: image, data: data.data });
                }
                let header = Header {
                    title: meta.title,
                    working_dir: meta.working_dir,
                    created_at: meta.created_at,
                    updated_at: meta.updated_at,
                    model: meta.model,
                };
                let doc = transfer::export(header, &conversation, images);
                let mut doc = serde_json::to_value(&doc)
                    .map_err(|e| RuntimeError::InvalidInput(format!("the conversation could not be written: {e}")))?;
                if hide {
                    self.shared.secrets.hide_value(&mut doc);
                }
                let text = serde_json::to_string_pretty(&doc)
                    .map_err(|e| RuntimeError::InvalidInput(format!("the conversation could not be written: {e}")))?;
                let file_name = format!("{stem}.braid.json");
                Ok(ExportedFile { file_name, media_type: "application/json".to_owned(), text })
            }
        }
    }

    /// New conversations from a file (a Braid export, a Claude Code
    /// session, ChatGPT's export), all read and checked before any is
    /// stored, each with this machine's tool settings (a file does not
    /// choose what runs without asking).
    pub async fn import_contexts(&self, text: &str) -> Result<Vec<ContextSummary>, RuntimeError> {
        let all = transfer::read_any(text).map_err(RuntimeError::InvalidInput)?;
        let mut out = Vec::with_capacity(all.len());
        for (header, conversation, images) in all {
            out.push(self.import_one(header, conversation, images).await?);
        }
        Ok(out)
    }

    async fn import_one(
        &self,
        header: Header,
        conversation: braid_core::Conversation,
        images: Vec<ExportedImage>,
    ) -> Result<ContextSummary, RuntimeError> {
        // Images go in first: each must be the bytes its id names. One
        // left unused by a failure is cleaned up like any orphan.
        for image in images {
            let stored = self.shared.images.put(image.data, None).await.map_err(|e| {
                RuntimeError::InvalidInput(format!("image {} in the file is not a readable image: {e}", image.id))
            })?;
            if stored.id != image.id {
                let why = format!("image {} in the file does not hold the bytes its id names", image.id);
                return Err(RuntimeError::InvalidInput(why));
            }
        }
        // Its folder where this machine has it (a Claude Code session's
        // project); the default folder otherwise.
        let dir = self.folder(Some(&header.working_dir)).or_else(|_| self.folder(None))?;
        let id = clock::new_context_id();
        let meta = ContextMeta {
            id: id.clone(),
            title: header.title,
            working_dir: dir.display().to_string(),
            created_at: header.created_at,
            updated_at: clock::now(),
            model: header.model,
            pinned: false,
        };
        let mut state = ContextState::new(id.clone());
        state.config = self.shared.config.machine.clone();
        state.config.tools.confirm_reads = self.shared.config.is_broad(&dir);
        state.next_message_id = conversation.max_message_id().map_or(1, |m| m.0 + 1);
        // Stored only: it loads when first opened, so a ChatGPT export of
        // a thousand conversations starts no thousand tasks.
        self.shared.lock_store().create_context(&meta, &state, &conversation)?;
        Ok(snapshot::summary(&meta, &state, &conversation))
    }
}

/// A file name from a title: letters, digits, spaces as '-', at most 60.
fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let stem: String = stem.chars().take(60).collect();
    if stem.is_empty() {
        "conversation".to_owned()
    } else {
        stem
    }
}
