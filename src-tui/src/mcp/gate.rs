//! The session rules rmcp is never left to meet alone: a message that would stop the
//! session or be answered with the wrong error is answered here, with its request's `id`.
//!
//! - Before `initialize`, a notification (`notifications/initialized` sent too early) is
//!   ignored and any other request is refused with "invalid request"; rmcp would end the
//!   session with a debug dump.
//! - `params` that is not an object, a `tools/call` whose `name` is not a text or whose
//!   `arguments` is not an object, a `resources/read` without a `uri` text, and an
//!   `initialize` without its fields get "invalid params" (-32602); rmcp would answer
//!   "method not found", or "invalid request" without the `id`.
//! - An `id` that is neither a text nor a whole number gets "invalid request".

use serde_json::{Map, Value, json};

/// JSON-RPC's "invalid request".
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "invalid params".
pub const INVALID_PARAMS: i64 = -32602;

/// What to do with one message.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Give it to rmcp.
    Forward,
    /// Nothing to do (a notification before `initialize`).
    Ignore,
    /// Answer this instead.
    Answer(Value),
}

/// JSON-RPC's error answer.
pub fn error(code: i64, message: &str, id: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Whether the session has begun (an `initialize` request went to rmcp).
#[derive(Debug, Default)]
pub struct Gate {
    initialized: bool,
}

impl Gate {
    /// The verdict on `message`, a JSON-RPC message object.
    pub fn check(&mut self, message: &Map<String, Value>) -> Verdict {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            // An answer to a request of ours: rmcp's to read, once the session is on.
            return if self.initialized {
                Verdict::Forward
            } else {
                Verdict::Ignore
            };
        };
        let Some(id) = message.get("id") else {
            // A notification; before `initialize` there is nothing it could mean.
            return if self.initialized {
                Verdict::Forward
            } else {
                Verdict::Ignore
            };
        };
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Verdict::Answer(error(
                INVALID_REQUEST,
                "invalid request: a request's \"id\" is a text or a whole number",
                Value::Null,
            ));
        }
        let refuse = |code: i64, text: &str| Verdict::Answer(error(code, text, id.clone()));
        let params = match message.get("params") {
            None | Some(Value::Null) => None,
            Some(Value::Object(params)) => Some(params),
            Some(_) => {
                return refuse(
                    INVALID_PARAMS,
                    &format!("invalid params: the \"params\" of {method} must be an object"),
                );
            }
        };
        let text = |name: &str| params.and_then(|p| p.get(name)).is_some_and(Value::is_string);
        let object = |name: &str| params.and_then(|p| p.get(name)).is_some_and(Value::is_object);
        if !self.initialized && method != "initialize" {
            return refuse(
                INVALID_REQUEST,
                &format!("invalid request: the session has not begun: send `initialize` before {method}"),
            );
        }
        match method {
            "initialize" => {
                let client_info = params
                    .and_then(|p| p.get("clientInfo"))
                    .and_then(Value::as_object)
                    .is_some_and(|c| {
                        c.get("name").is_some_and(Value::is_string) && c.get("version").is_some_and(Value::is_string)
                    });
                if !(text("protocolVersion") && object("capabilities") && client_info) {
                    return refuse(
                        INVALID_PARAMS,
                        "invalid params: initialize takes {\"protocolVersion\": text, \"capabilities\": {…}, \"clientInfo\": {\"name\": text, \"version\": text}}",
                    );
                }
                if self.initialized {
                    return refuse(INVALID_REQUEST, "invalid request: the session has already begun");
                }
                self.initialized = true;
            }
            "tools/call" => {
                if !text("name") {
                    return refuse(
                        INVALID_PARAMS,
                        "invalid params: tools/call needs the tool's \"name\" (a text)",
                    );
                }
                match params.and_then(|p| p.get("arguments")) {
                    None | Some(Value::Null | Value::Object(_)) => {}
                    Some(_) => {
                        return refuse(
                            INVALID_PARAMS,
                            "invalid params: \"arguments\" must be an object of the tool's arguments by name (see its input schema)",
                        );
                    }
                }
            }
            "resources/read" if !text("uri") => {
                return refuse(
                    INVALID_PARAMS,
                    "invalid params: resources/read needs a \"uri\" (a text)",
                );
            }
            _ => {}
        }
        Verdict::Forward
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(gate: &mut Gate, message: Value) -> Verdict {
        gate.check(message.as_object().unwrap())
    }

    fn code(verdict: &Verdict) -> (i64, Value) {
        let Verdict::Answer(answer) = verdict else {
            panic!("{verdict:?}")
        };
        (answer["error"]["code"].as_i64().unwrap(), answer["id"].clone())
    }

    #[test]
    fn nothing_before_initialize_stops_the_session() {
        let mut gate = Gate::default();
        let early = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(check(&mut gate, early.clone()), Verdict::Ignore);
        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
        assert_eq!(code(&check(&mut gate, list.clone())), (INVALID_REQUEST, json!(3)));
        let bare = json!({"jsonrpc": "2.0", "id": "a", "method": "initialize"});
        assert_eq!(code(&check(&mut gate, bare)), (INVALID_PARAMS, json!("a")));
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}});
        assert_eq!(check(&mut gate, init.clone()), Verdict::Forward);
        assert_eq!(check(&mut gate, early), Verdict::Forward);
        assert_eq!(check(&mut gate, list), Verdict::Forward);
        assert_eq!(code(&check(&mut gate, init)), (INVALID_REQUEST, json!(1)));
    }

    #[test]
    fn malformed_params_are_invalid_params_with_the_id() {
        let mut gate = Gate { initialized: true };
        for (params, id) in [
            (json!({"name": "search_memory", "arguments": [1]}), json!(7)),
            (json!({"name": "search_memory", "arguments": "x"}), json!(8)),
            (json!({"arguments": {}}), json!(9)),
            (json!(5), json!(10)),
            (json!([1]), json!(11)),
        ] {
            let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
            assert_eq!(code(&check(&mut gate, call)), (INVALID_PARAMS, id));
        }
        let read = json!({"jsonrpc": "2.0", "id": 12, "method": "resources/read", "params": {}});
        assert_eq!(code(&check(&mut gate, read)), (INVALID_PARAMS, json!(12)));
        let odd_id = json!({"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"});
        assert_eq!(code(&check(&mut gate, odd_id)), (INVALID_REQUEST, Value::Null));
        let fine = json!({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "read_core"}});
        assert_eq!(check(&mut gate, fine), Verdict::Forward);
    }
}
