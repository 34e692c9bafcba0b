//! What the app does with the results of its effects: the store's answers, finished
//! writes (with how to undo them), failures and background progress.

use super::{
    AgentsState, App, CoreState, Effect, HistoryState, LatestState, Msg, Overlay, ReviewState, SearchState, Undo,
    effect,
};

impl App {
    /// Applies the result of an effect.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Info(info) => {
                self.info = Some(*info);
                Vec::new()
            }
            Msg::StoreChanged => self.refresh(),
            Msg::Progress(text) => {
                self.inform(text);
                Vec::new()
            }
            Msg::Done(message) => {
                self.deciding.clear();
                self.inform(message);
                self.refresh()
            }
            Msg::Undoable { message, undo } => {
                self.deciding.clear();
                // In History, the change just made (a revert, an undo) is the newest row:
                // the selection goes there.
                if self.view == super::View::History {
                    self.history = HistoryState::default();
                }
                self.inform(format!("{message} · z undoes it"));
                self.undo = Some(undo);
                self.refresh()
            }
            Msg::Failed { what, error } => {
                self.deciding.clear();
                if what == "add" {
                    self.busy = None;
                }
                for pane in self.panes_mut() {
                    pane.failed();
                }
                self.fail(format!("{what} failed: {error}"));
                Vec::new()
            }
            Msg::Added(outcome) => {
                self.busy = None;
                match (outcome.status, outcome.changeset) {
                    (haema_core::AddStatus::Committed, Some(id)) => {
                        self.inform(format!("{} · z undoes it", effect::describe_add(&outcome)));
                        self.undo = Some(Undo::new(format!("the add (#{id})"), Effect::Revert(id)));
                    }
                    _ => self.inform(effect::describe_add(&outcome)),
                }
                self.refresh()
            }
            Msg::StoreSwitched { dir } => {
                self.store_dir = dir;
                // An undo belongs to the store it was made in.
                self.undo = None;
                self.latest = LatestState::default();
                self.search = SearchState::default();
                self.core = CoreState::default();
                self.review = ReviewState::default();
                self.history = HistoryState::default();
                self.agents = AgentsState::default();
                self.inform(format!("opened {}", self.store_dir.display()));
                self.refresh()
            }
            Msg::Latest { append, records, limit } => {
                self.latest.receive(append, records, limit);
                Vec::new()
            }
            Msg::Changeset(changeset) => {
                self.open_window(Overlay::Changeset { changeset, scroll: 0 });
                Vec::new()
            }
            Msg::Lineage(lineage) => {
                self.open_window(Overlay::Lineage { lineage, scroll: 0 });
                Vec::new()
            }
            Msg::ForgetPlan { id, plan } => {
                if plan.memories.is_empty() {
                    self.inform("that memory is forgotten already".to_owned());
                } else {
                    self.open_window(Overlay::confirm(
                        effect::forget_question(&plan),
                        "forget for good",
                        vec![Effect::Forget(id)],
                    ));
                }
                Vec::new()
            }
            Msg::SearchDone { generation, results } => {
                if let Some(notice) = self.search.search_done(generation, results) {
                    self.inform(notice);
                }
                Vec::new()
            }
            Msg::ProfileLines { generation, lines } => {
                if generation == self.search.generation {
                    self.search.profile = lines;
                }
                Vec::new()
            }
            Msg::RecallDone { generation, recall } => {
                self.search.recall_done(generation, recall);
                Vec::new()
            }
            Msg::Core { sections, locked } => {
                self.core.receive(sections, locked);
                Vec::new()
            }
            Msg::CoreVersions(versions) => {
                self.core.receive_versions(versions);
                Vec::new()
            }
            Msg::Review(changesets, forgets) => {
                self.review.receive(changesets, forgets);
                Vec::new()
            }
            Msg::History { append, page, limit } => {
                self.history.receive(append, page, limit);
                Vec::new()
            }
            Msg::Stores(entries) => {
                self.stores.receive(entries, &self.store_dir);
                Vec::new()
            }
            Msg::AgentKeys(keys) => {
                self.agents.receive(keys);
                Vec::new()
            }
            Msg::KeyMade(made) => {
                // Shown in a window of its own, never in the status line or its log.
                self.open_window(Overlay::NewKey(made));
                vec![Effect::ListAgentKeys]
            }
        }
    }
}

impl App {
    /// Opens a window an answer brought, unless a new agent key is on screen: that window
    /// stays until the person closes it (the key cannot be shown again), and the answer
    /// waits for the next time it is asked for.
    fn open_window(&mut self, overlay: Overlay) {
        if matches!(self.overlay, Some(Overlay::NewKey(_))) {
            self.inform("close the new key's window first (enter or esc), then ask again".to_owned());
            return;
        }
        self.overlay = Some(overlay);
    }
}
