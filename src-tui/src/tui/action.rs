//! What a key can do: every bindable action, its scope, default keys and help text.

/// Where an action applies. Keys are looked up in the current view's scope first, then in
/// [`Scope::List`] (every view has a list), then in [`Scope::Global`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Everywhere.
    Global,
    /// Moving in any list.
    List,
    /// The Latest view.
    Latest,
    /// The Search view.
    Search,
    /// The Core view.
    Core,
    /// The Review view.
    Review,
    /// The History view.
    History,
    /// The Stores view.
    Stores,
    /// The Agents view.
    Agents,
}

impl Scope {
    /// Heading in the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Self::Global => "Everywhere",
            Self::List => "Lists",
            Self::Latest => "Latest",
            Self::Search => "Search",
            Self::Core => "Core",
            Self::Review => "Review",
            Self::History => "History",
            Self::Stores => "Stores",
            Self::Agents => "Agents",
        }
    }
}

macro_rules! actions {
    ($($variant:ident $name:literal $scope:ident [$($key:literal),*] $help:literal;)*) => {
        /// A bindable action. Names are the keys of `[tui.keys]` in haema.toml.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action {
            $(#[doc = $help] $variant,)*
        }

        impl Action {
            /// Every action, in help order.
            pub const ALL: &'static [Action] = &[$(Action::$variant,)*];

            /// The name used in haema.toml.
            pub fn name(self) -> &'static str {
                match self { $(Self::$variant => $name,)* }
            }

            /// Where it applies.
            pub fn scope(self) -> Scope {
                match self { $(Self::$variant => Scope::$scope,)* }
            }

            /// Keys bound by default.
            pub fn default_keys(self) -> &'static [&'static str] {
                match self { $(Self::$variant => &[$($key),*],)* }
            }

            /// One line for the help screen.
            pub fn help(self) -> &'static str {
                match self { $(Self::$variant => $help,)* }
            }
        }
    };
}

actions! {
    Quit "quit" Global ["q", "ctrl-c"] "quit";
    Help "help" Global ["?", "f1"] "show or hide this help";
    NextView "next_view" Global ["tab"] "next view";
    PrevView "prev_view" Global ["shift-tab"] "previous view";
    ShowLatest "show_latest" Global ["1"] "Latest: newest memories";
    ShowSearch "show_search" Global ["2"] "Search: find memories";
    ShowCore "show_core" Global ["3"] "Core: the four core sections";
    ShowReview "show_review" Global ["4"] "Review: changes waiting for a decision";
    ShowHistory "show_history" Global ["5"] "History: every changeset";
    ShowStores "show_stores" Global ["6"] "Stores: switch between stores";
    ShowAgents "show_agents" Global ["7"] "Agents: the keys agents reach the store with over the network";
    Search "search" Global ["/"] "type a search query";
    Add "add" Global ["a"] "add a memory (the LLM merges it in)";
    Refresh "refresh" Global ["ctrl-r", "f5"] "reload from the store";
    Undo "undo" Global ["z"] "undo the last change (the status line says which; z again redoes)";
    Messages "messages" Global ["M"] "the last messages, whole (a long one is cut in the status line)";
    Up "up" List ["up", "k"] "move up";
    Down "down" List ["down", "j"] "move down";
    PageUp "page_up" List ["pageup", "ctrl-b"] "page up";
    PageDown "page_down" List ["pagedown", "ctrl-f"] "page down";
    Top "top" List ["home", "g"] "first item";
    Bottom "bottom" List ["end", "G"] "last item";
    ScrollDown "scroll_down" List ["J", "shift-down"] "scroll the text beside the list down (a long memory, the recall preview)";
    ScrollUp "scroll_up" List ["K", "shift-up"] "scroll the text beside the list up";
    Open "open" List ["enter"] "open the selected item";
    Back "back" List ["esc"] "close / go back";
    Forget "forget" List ["F"] "forget the selected memory for good (asks first)";
    DeleteMemory "delete_memory" List ["d"] "delete the selected memory (asks first; u in History brings it back)";
    EditMemory "edit_memory" List ["c"] "change the selected memory's text (ctrl-s saves, esc cancels)";
    EditAttributes "edit_attributes" List ["A"] "change the selected memory's attributes, as JSON (ctrl-s saves, esc cancels)";
    TogglePin "toggle_pin" List ["P"] "pin or unpin the selected memory (no change replaces a pinned one without review)";
    CycleMode "cycle_mode" Search ["m"] "search mode: hybrid, vector, lexical";
    ToggleRecall "toggle_recall" Search ["p"] "recall preview: the block an agent would get";
    EditSection "edit_section" Core ["e"] "edit the section here (ctrl-s saves, esc cancels)";
    EditExternal "edit_external" Core ["E"] "edit the section in $EDITOR";
    ToggleLock "toggle_lock" Core ["l"] "lock or unlock the section (the LLM never changes a locked one)";
    Versions "versions" Core ["v"] "version history of core.md";
    MarkVersion "mark_version" Core ["space"] "mark a version to compare";
    Restore "restore" Core ["r"] "restore the selected version";
    Approve "approve" Review ["y"] "approve the changeset";
    Reject "reject" Review ["n", "x"] "reject the changeset";
    ApproveAll "approve_all" Review ["Y"] "approve every pending changeset";
    EditProposal "edit_proposal" Review ["e"] "edit the proposed memories, then approve";
    Rerun "rerun" Review ["R"] "re-run a stale changeset against the memories as they are now";
    Revert "revert" History ["u"] "revert the changeset (asks first)";
    SwitchStore "switch_store" Stores ["o"] "open the selected store";
    NewStore "new_store" Stores ["N"] "create a store";
    NewKey "new_key" Agents ["N"] "make a key for an agent: name, access (read, propose, write), expiry; shown once";
    RevokeKey "revoke_key" Agents ["x"] "revoke the selected key: it stops working at once (asks first)";
    RotateKey "rotate_key" Agents ["R"] "give the selected agent a new key; the old one stops working (asks first)";
    UndoAgent "undo_agent" Agents ["u"] "undo what the selected agent did: revert its changes, reject its proposals (asks first)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_snake_case() {
        let mut names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        );
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before);
    }
}
