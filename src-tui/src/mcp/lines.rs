//! The MCP server's standard input and output, guarded: every line a client sends is
//! answered. A line that is not JSON gets JSON-RPC's parse error (-32700), JSON that is not
//! a message gets "invalid request" (-32600), and a line longer than [`MAX_LINE`] gets an
//! error too, without being held in memory; the server then reads the next line. Good
//! lines go to rmcp unchanged, and its answers and ours reach standard output whole, one
//! line at a time.

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// Longest line read, in bytes (a memory of several megabytes still fits).
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// Pipe capacity between the guard and rmcp.
const PIPE: usize = 1 << 20;

/// What a line is.
#[derive(Debug, PartialEq)]
enum Line {
    /// A JSON-RPC message object (for rmcp, once the [`super::gate::Gate`] lets it by).
    Message(serde_json::Map<String, Value>),
    /// Nothing to do (a blank line).
    Blank,
    /// The answer to send instead.
    Refused(Value),
}

use super::gate::{Gate, Verdict, error};

fn classify(line: &[u8]) -> Line {
    let text = line.trim_ascii();
    if text.is_empty() {
        return Line::Blank;
    }
    let value: Value = match serde_json::from_slice(text) {
        Ok(v) => v,
        Err(e) => {
            return Line::Refused(error(
                -32700,
                &format!("parse error: the line is not JSON ({e})"),
                Value::Null,
            ));
        }
    };
    let Value::Object(object) = value else {
        return Line::Refused(error(
            -32600,
            "invalid request: send one JSON-RPC message (an object) per line; batches are not part of MCP",
            Value::Null,
        ));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    let is_message = object.get("jsonrpc") == Some(&json!("2.0"))
        && (object.get("method").is_some_and(Value::is_string)
            || object.contains_key("result")
            || object.contains_key("error"));
    if !is_message {
        return Line::Refused(error(
            -32600,
            "invalid request: a message needs \"jsonrpc\": \"2.0\" and a \"method\" (or a \"result\" or \"error\")",
            id,
        ));
    }
    Line::Message(object)
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf`; a longer line is read to its
/// end and dropped. Returns `None` at the end of input, `Some(false)` for a dropped line.
async fn read_line(input: &mut (impl AsyncBufRead + Unpin), buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut too_long = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((!buf.is_empty() || too_long).then_some(!too_long));
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..=at], true),
            None => (chunk, false),
        };
        let used = part.len();
        if !too_long {
            if buf.len() + used > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        input.consume(used);
        if done {
            return Ok(Some(!too_long));
        }
    }
}

/// The rmcp end of the guard, and the task that writes standard output (await it after the
/// session so that the last answers are out before the process ends).
pub struct Guarded {
    /// rmcp reads the client's messages here.
    pub input: DuplexStream,
    /// rmcp writes its answers here.
    pub output: DuplexStream,
    /// Ends once every answer is written.
    pub writer: tokio::task::JoinHandle<()>,
}

/// Serves the guard between `input`/`output` and the rmcp side of two pipes.
pub fn guard(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite + Unpin + Send + 'static,
) -> Guarded {
    let (rmcp_in, mut to_rmcp) = tokio::io::duplex(PIPE);
    let (from_rmcp, rmcp_out) = tokio::io::duplex(PIPE);
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    // One writer: whole lines from rmcp and from the guard, never interleaved.
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = rx.recv().await {
            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                break;
            }
        }
    });
    let answers = tx.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(from_rmcp).split(b'\n');
        while let Ok(Some(mut line)) = lines.next_segment().await {
            line.push(b'\n');
            if answers.send(line).is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut buf = Vec::new();
        let mut gate = Gate::default();
        loop {
            let refused = match read_line(&mut input, &mut buf).await {
                Ok(None) | Err(_) => break,
                Ok(Some(false)) => error(
                    -32600,
                    &format!(
                        "invalid request: the line is longer than {} MB",
                        MAX_LINE / (1024 * 1024)
                    ),
                    Value::Null,
                ),
                Ok(Some(true)) => match classify(&buf) {
                    Line::Blank => continue,
                    Line::Message(message) => match gate.check(&message) {
                        Verdict::Ignore => continue,
                        Verdict::Answer(answer) => answer,
                        Verdict::Forward => {
                            drop(message);
                            if !buf.ends_with(b"\n") {
                                buf.push(b'\n');
                            }
                            if to_rmcp.write_all(&buf).await.is_err() {
                                break;
                            }
                            continue;
                        }
                    },
                    Line::Refused(answer) => answer,
                },
            };
            let mut line = refused.to_string().into_bytes();
            line.push(b'\n');
            if tx.send(line).is_err() {
                break;
            }
        }
        // End of input: rmcp sees it and ends the session.
        let _ = to_rmcp.shutdown().await;
    });
    Guarded {
        input: rmcp_in,
        output: rmcp_out,
        writer,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_classified_as_json_rpc_says() {
        assert_eq!(classify(b"  \r\n"), Line::Blank);
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            Line::Message(_)
        ));
        assert!(matches!(
            classify(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Line::Message(_)
        ));
        let Line::Refused(parse) = classify(b"not json") else {
            panic!()
        };
        assert_eq!(
            (parse["error"]["code"].as_i64(), &parse["id"]),
            (Some(-32700), &Value::Null)
        );
        let Line::Refused(batch) = classify(b"[1, 2]") else {
            panic!()
        };
        assert_eq!(batch["error"]["code"], -32600);
        let Line::Refused(no_method) = classify(br#"{"jsonrpc":"2.0","id":7}"#) else {
            panic!()
        };
        assert_eq!(
            (no_method["error"]["code"].as_i64(), &no_method["id"]),
            (Some(-32600), &json!(7))
        );
    }

    #[tokio::test]
    async fn a_long_line_is_dropped_without_being_held_and_the_next_is_read() {
        let mut text = vec![b'x'; MAX_LINE + 10];
        text.extend_from_slice(b"\n{\"a\":1}\n");
        let mut input = BufReader::with_capacity(4096, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).await.unwrap(), Some(false));
        assert!(buf.capacity() <= MAX_LINE + 8192, "not held: {}", buf.capacity());
        assert_eq!(read_line(&mut input, &mut buf).await.unwrap(), Some(true));
        assert_eq!(buf, b"{\"a\":1}\n");
        assert_eq!(read_line(&mut input, &mut buf).await.unwrap(), None);
    }
}
