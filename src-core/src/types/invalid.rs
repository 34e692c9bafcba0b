//! What is wrong with a value given to haema, said so that a person can fix it: the error
//! of the checks on values (attributes, filters, ids, core.md's form), which know nothing of
//! stores or providers. [`Error`](crate::error::Error) takes it in with `?`.

/// A value haema was given that it cannot take, with what to give instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// A value outside its allowed range or form
    /// ([`Error::InvalidArgument`](crate::error::Error::InvalidArgument)).
    #[error("{0}")]
    Argument(String),
    /// core.md or a core section not in the expected form
    /// ([`Error::CoreFormat`](crate::error::Error::CoreFormat)).
    #[error("{0}")]
    CoreFormat(String),
}

/// The result of a check on a value.
pub(crate) type Result<T, E = Invalid> = std::result::Result<T, E>;
