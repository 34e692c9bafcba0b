//! Macros the crate's modules share.

/// Declares a closed set: an enum whose variants each have one stable spelling, with
/// `as_str`, `ALL`, `Display`, `FromStr` (an `UnknownValue` for any other text) and serde
/// using the same spelling.
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "specta", derive(specta::Type))]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            #[allow(dead_code, reason = "a crate-private set need not list its values")]
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// Every spelling, in declaration order.
            pub const SPELLINGS: &'static [&'static str] = &[$($text),+];

            /// The one spelling: stored, serialised and shown.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $text, )+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::types::UnknownValue;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $( $text => Ok(Self::$variant), )+
                    other => Err($crate::types::UnknownValue {
                        what: $what,
                        value: other.to_owned(),
                        expected: Self::SPELLINGS,
                    }),
                }
            }
        }
    };
}
