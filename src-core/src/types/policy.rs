//! What a store does with a change (its review policy) and whose memories it keeps apart
//! (its scope), as settings files and variables spell them.

closed_set! {
    /// What happens to a changeset once it is built.
    #[derive(Default)]
    pub enum ReviewPolicy ("review policy") {
        /// Commit at once (HAEMA's behaviour); text that reads like a prompt injection is
        /// committed too, with a warning.
        Auto = "auto",
        /// Every changeset waits for a person.
        Review = "review",
        /// Commit at once when it removes no memory, leaves core alone and nothing in it reads
        /// like a prompt injection; otherwise wait.
        #[default]
        Guarded = "guarded",
    }
}

closed_set! {
    /// Whose memories a store keeps apart.
    #[derive(Default)]
    pub enum StoreScope ("scope") {
        /// One set of memories (HAEMA's behaviour); a user id on a memory is an attribute
        /// to filter on.
        #[default]
        Shared = "shared",
        /// Each memory belongs to one user: every read and write must say which user, and
        /// sees and changes only that user's memories and changes.
        PerUser = "per_user",
    }
}
