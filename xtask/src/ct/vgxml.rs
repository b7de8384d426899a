//! A reader for the subset of valgrind's XML log (`--xml=yes`, protocol 4) this check needs:
//! the client messages (`<clientmsg>`) and errors (`<error>` with kind and stack), in order.

/// One stack frame.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    pub ip: String,
    pub func: String,
    pub dir: String,
    pub file: String,
    pub line: u32,
}

impl Frame {
    /// `dir/file` (empty when valgrind had no line information).
    pub fn path(&self) -> String {
        if self.file.is_empty() {
            String::new()
        } else {
            format!("{}/{}", self.dir, self.file)
        }
    }
}

/// One event of the log.
#[derive(Clone, Debug)]
pub enum Event {
    /// A client message (`valgrind::log` in the harness).
    Message(String),
    /// A reported error.
    Error {
        kind: String,
        what: String,
        stack: Vec<Frame>,
    },
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The text of the first `<tag>…</tag>` in `s`.
fn field(s: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let a = s.find(&open)? + open.len();
    let b = a + s[a..].find(&close)?;
    Some(unescape(s[a..b].trim()))
}

/// Every `<tag>…</tag>` block in `s`, in order.
fn blocks<'a>(s: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(a) = rest.find(&open) {
        let body = &rest[a + open.len()..];
        let Some(b) = body.find(&close) else { break };
        out.push(&body[..b]);
        rest = &body[b + close.len()..];
    }
    out
}

/// The events of a whole log, in order.
pub fn parse(xml: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let mut rest = xml;
    loop {
        let e = rest.find("<error>");
        let m = rest.find("<clientmsg>");
        let (at, is_error) = match (e, m) {
            (Some(e), Some(m)) => (e.min(m), e < m),
            (Some(e), None) => (e, true),
            (None, Some(m)) => (m, false),
            (None, None) => break,
        };
        let (open, close) = if is_error {
            ("<error>", "</error>")
        } else {
            ("<clientmsg>", "</clientmsg>")
        };
        let body_start = at + open.len();
        let Some(len) = rest[body_start..].find(close) else {
            break;
        };
        let body = &rest[body_start..body_start + len];
        if is_error {
            let stack_xml = blocks(body, "stack").first().copied().unwrap_or("");
            let stack = blocks(stack_xml, "frame")
                .into_iter()
                .map(|f| Frame {
                    ip: field(f, "ip").unwrap_or_default(),
                    func: field(f, "fn").unwrap_or_default(),
                    dir: field(f, "dir").unwrap_or_default(),
                    file: field(f, "file").unwrap_or_default(),
                    line: field(f, "line").and_then(|l| l.parse().ok()).unwrap_or(0),
                })
                .collect();
            events.push(Event::Error {
                kind: field(body, "kind").unwrap_or_default(),
                what: field(body, "what")
                    .or_else(|| field(body, "text"))
                    .unwrap_or_default(),
                stack,
            });
        } else {
            events.push(Event::Message(field(body, "text").unwrap_or_default()));
        }
        rest = &rest[body_start + len + close.len()..];
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_messages_and_errors_in_order() {
        let xml = "<valgrindoutput><clientmsg><tid>1</tid><text>BEGIN a.b\n</text></clientmsg>\
            <error><unique>0x1</unique><kind>UninitCondition</kind><what>Conditional jump</what>\
            <stack><frame><ip>0x10</ip><fn>f&lt;T&gt;</fn><dir>/w/x</dir><file>y.rs</file>\
            <line>7</line></frame><frame><ip>0x20</ip><obj>/lib</obj></frame></stack></error>\
            <clientmsg><tid>1</tid><text>END a.b</text></clientmsg></valgrindoutput>";
        let ev = parse(xml);
        assert_eq!(ev.len(), 3);
        assert!(matches!(&ev[0], Event::Message(m) if m == "BEGIN a.b"));
        let Event::Error { kind, stack, .. } = &ev[1] else {
            panic!("not an error")
        };
        assert_eq!(kind, "UninitCondition");
        assert_eq!(stack.len(), 2);
        assert_eq!(stack[0].func, "f<T>");
        assert_eq!(stack[0].path(), "/w/x/y.rs");
        assert_eq!(stack[0].line, 7);
        assert_eq!(stack[1].path(), "");
    }
}
