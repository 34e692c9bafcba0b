//! Latest: the newest memories, paged by keyset as the cursor nears the end.

use haema_core::MemoryRecord;

use super::{Ctx, Effect, PagedList, Pane, Reply};
use crate::tui::action::Action;

/// The Latest view: loaded memories, newest first.
pub type LatestState = PagedList<MemoryRecord>;

impl Pane for LatestState {
    fn load(&mut self) -> Vec<Effect> {
        let limit = self.reload();
        vec![Effect::LoadLatest { after: None, limit }]
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        if self.move_cursor(action) {
            let after = self.next_page().cloned();
            let mut reply: Reply = after
                .map(|after| Effect::LoadLatest {
                    after: Some(Box::new(after)),
                    limit: super::PAGE,
                })
                .into();
            reply.note = self.partial_end(action, "memories");
            return reply;
        }
        self.selected()
            .and_then(|m| super::memory_keys::on_memory(action, m))
            .unwrap_or_else(Reply::none)
    }

    fn failed(&mut self) {
        PagedList::failed(self);
    }
}
