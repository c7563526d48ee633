//! The one SVG writer every picture goes through (rack placements, the
//! sweep, the fat-tree's racks, the bandwidth plot): elements are built
//! with their attributes and text, and every value and text is escaped
//! here, once, so no caller can forget it and leave a document that does
//! not parse.

use crate::escape::xml;
use std::fmt::{self, Display, Write as _};

/// One element: its name, its attributes (escaped as they are added) and
/// its content (escaped text and child elements, in order).
#[derive(Clone, Debug)]
pub struct Element {
    name: &'static str,
    attrs: String,
    /// None: an empty element (`<rect .../>`).
    content: Option<String>,
}

impl Element {
    pub fn new(name: &'static str) -> Element {
        Element {
            name,
            attrs: String::new(),
            content: None,
        }
    }

    /// Adds `name="value"`, the value escaped.
    pub fn attr(mut self, name: &'static str, value: impl Display) -> Element {
        let _ = write!(self.attrs, " {name}=\"{}\"", xml(&value.to_string()));
        self
    }

    /// Adds text to the content, escaped.
    pub fn text(mut self, text: &str) -> Element {
        self.content.get_or_insert_default().push_str(&xml(text));
        self
    }

    /// Adds a child element to the content.
    pub fn child(mut self, child: Element) -> Element {
        let _ = write!(self.content.get_or_insert_default(), "{child}");
        self
    }

    /// Adds a `<title>` child: the tooltip a browser shows.
    pub fn titled(self, text: &str) -> Element {
        self.child(Element::new("title").text(text))
    }
}

impl Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.content {
            None => write!(f, "<{}{}/>", self.name, self.attrs),
            Some(c) => write!(f, "<{}{}>{c}</{}>", self.name, self.attrs, self.name),
        }
    }
}

/// A whole SVG document, an element a line.
#[derive(Debug)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// A document `width` x `height` px in a sans-serif font of
    /// `font_size` px.
    pub fn new(width: f64, height: f64, font_size: u32) -> Svg {
        let root = Element::new("svg")
            .attr("xmlns", "http://www.w3.org/2000/svg")
            .attr("width", width)
            .attr("height", height)
            .attr("font-family", "sans-serif")
            .attr("font-size", font_size);
        let open = root.to_string();
        // The root stays open until `finish`: drop the self-closing `/>`.
        let out = format!("{}>\n", open.trim_end_matches("/>"));
        Svg { out }
    }

    pub fn push(&mut self, e: Element) {
        let _ = writeln!(self.out, "{e}");
    }

    /// The document, closed.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text and attribute values that would end a string or open a tag
    /// read back exactly as given, and the document parses.
    #[test]
    fn hostile_text_reads_back_as_text() {
        let hostile = "a\"b<c>&d'e</title><script>x</script>";
        let mut s = Svg::new(10.0, 20.5, 9);
        s.push(Element::new("title").text(hostile));
        s.push(Element::new("rect").attr("fill", hostile).attr("x", 1.5));
        s.push(
            Element::new("text")
                .text("one ")
                .child(Element::new("tspan").text(hostile))
                .titled(""),
        );
        let text = s.finish();
        let doc = roxmltree::Document::parse(&text).expect("well-formed");
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("10"));
        assert_eq!(root.attribute("height"), Some("20.5"));
        assert_eq!(root.attribute("font-size"), Some("9"));
        let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some(hostile));
        let rect = doc.descendants().find(|n| n.has_tag_name("rect")).unwrap();
        assert_eq!(rect.attribute("fill"), Some(hostile));
        let tspan = doc.descendants().find(|n| n.has_tag_name("tspan")).unwrap();
        assert_eq!(tspan.text(), Some(hostile));
        assert!(doc.descendants().all(|n| !n.has_tag_name("script")));
        assert!(text.contains("<title></title>"), "an empty title stays a pair");
    }
}
