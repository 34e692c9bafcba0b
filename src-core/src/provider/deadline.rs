//! One deadline for all the LLM calls of one add: every stage (split, rebuild, refinement,
//! core update) with its retries shares it, so a slow or hung LLM holds an add for at most
//! that long; a call that would pass it fails as a timeout, and the stage falls back as it
//! does for any LLM failure (nothing given is dropped).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;
use tokio::time::Instant;

use super::{Llm, ProviderError, ProviderErrorKind, StructuredRequest};

/// An LLM whose calls share one deadline.
pub(crate) struct WithDeadline {
    inner: Arc<dyn Llm>,
    deadline: Instant,
    budget: Duration,
}

impl WithDeadline {
    /// `inner`, with `budget` from now for all its calls.
    pub(crate) fn new(inner: Arc<dyn Llm>, budget: Duration) -> Self {
        Self {
            inner,
            deadline: Instant::now() + budget,
            budget,
        }
    }

    fn out_of_time(&self) -> ProviderError {
        ProviderError::new(
            self.inner.id(),
            ProviderErrorKind::Timeout,
            format!(
                "the LLM used up this add's time ({} s in all, `llm.add_deadline_secs`)",
                self.budget.as_secs()
            ),
        )
    }
}

#[async_trait]
impl Llm for WithDeadline {
    fn id(&self) -> String {
        self.inner.id()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(self.out_of_time());
        }
        tokio::time::timeout(left, self.inner.generate_structured(request))
            .await
            .unwrap_or_else(|_| Err(self.out_of_time()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Slow(Duration);

    #[async_trait]
    impl Llm for Slow {
        fn id(&self) -> String {
            "test:slow".into()
        }

        async fn generate_structured(&self, _request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
            tokio::time::sleep(self.0).await;
            Ok(Value::Null)
        }
    }

    fn request(schema: &Value) -> StructuredRequest<'_> {
        StructuredRequest {
            name: "reconstruct",
            system: "",
            user: "",
            schema,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn calls_share_one_deadline() {
        let schema = Value::Null;
        let llm = WithDeadline::new(Arc::new(Slow(Duration::from_secs(40))), Duration::from_secs(100));
        assert!(llm.generate_structured(request(&schema)).await.is_ok());
        assert!(llm.generate_structured(request(&schema)).await.is_ok());
        let third = llm.generate_structured(request(&schema)).await.unwrap_err();
        assert_eq!(third.kind, ProviderErrorKind::Timeout);
        assert!(third.message.contains("100 s"), "{third}");
        let fourth = llm.generate_structured(request(&schema)).await.unwrap_err();
        assert_eq!(fourth.kind, ProviderErrorKind::Timeout);
    }
}
