//! What the keys of a selected memory do, the same in Latest and Search: its lineage,
//! forget, delete, change its text, pin.

use haema_core::MemoryRecord;

use super::{EditTarget, Effect, Overlay, Reply};
use crate::output::one_line;
use crate::tui::action::Action;

/// The reply to `action` on the selected memory `m`; `None` for an action that is not
/// about one memory.
pub fn on_memory(action: Action, m: &MemoryRecord) -> Option<Reply> {
    Some(match action {
        Action::Open => vec![Effect::LoadLineage(m.id.clone())].into(),
        Action::Forget => vec![Effect::PlanForget(m.id.clone())].into(),
        Action::DeleteMemory => Reply::overlay(Overlay::confirm(
            format!(
                "Delete “{}”? It leaves search, latest and recall; z (or u on its change in History) brings it back.",
                one_line(&m.content)
            ),
            "delete it",
            vec![Effect::DeleteMemory(m.id.clone())],
        )),
        Action::EditMemory => Reply::overlay(Overlay::editor(EditTarget::Memory(m.id.clone()), &m.content)),
        Action::EditAttributes => Reply::overlay(Overlay::editor(
            EditTarget::Attributes(m.id.clone()),
            &attributes_json(&m.attributes),
        )),
        Action::TogglePin => vec![Effect::SetPinned {
            id: m.id.clone(),
            pinned: !m.pinned,
        }]
        .into(),
        _ => return None,
    })
}

/// A memory's attributes as the editor shows them: every attribute, `null` when unset, so a
/// person sees what there is to fill in.
fn attributes_json(attributes: &haema_core::MemoryAttributes) -> String {
    let mut all = serde_json::json!({
        "memory_type": null,
        "importance": null,
        "source": null,
        "agent_id": null,
        "session_id": null,
        "user_id": null,
        "metadata": {},
    });
    if let (Some(all), Ok(serde_json::Value::Object(set))) = (all.as_object_mut(), serde_json::to_value(attributes)) {
        all.extend(set);
    }
    serde_json::to_string_pretty(&all).unwrap_or_else(|_| "{}".to_owned())
}
