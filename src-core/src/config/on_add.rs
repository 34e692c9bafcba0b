//! When an add makes its memories' search vectors (`[embedder] on_add`).

closed_set! {
    /// When an add makes the search vectors of the memories it stores.
    ///
    /// ```
    /// use haema_core::config::EmbedOnAdd;
    /// assert_eq!("later".parse::<EmbedOnAdd>()?, EmbedOnAdd::Later);
    /// assert_eq!(EmbedOnAdd::default(), EmbedOnAdd::Now);
    /// # Ok::<(), haema_core::UnknownValue>(())
    /// ```
    #[derive(Default)]
    pub enum EmbedOnAdd ("embedding time") {
        /// Before the add returns: related memories are found by meaning, and a new memory
        /// is found by meaning at once (an embedder that fails leaves it to later).
        #[default]
        Now = "now",
        /// After: the add stores at once without waiting for the embedder (related memories
        /// are found by words), and a background worker makes the vectors in batches; a
        /// memory is found by words until its vector is made.
        Later = "later",
    }
}
