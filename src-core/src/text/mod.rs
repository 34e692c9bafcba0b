//! Text rules shared by the engine: how a phrase is found whatever form it was written in.

pub(crate) mod fold;
pub(crate) mod phrase;

pub(crate) use phrase::Phrase;
