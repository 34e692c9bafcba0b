//! core.md's four sections, parsed as real headings and rendered in file order.

use std::collections::BTreeMap;

use crate::types::Section;
use crate::types::invalid::{Invalid, Result};

/// The file a new store starts with (the same as HAEMA's).
pub const TEMPLATE: &str = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n";

/// The four sections of core.md, each without its heading and trimmed of blank lines.
///
/// ```
/// use haema_core::{CoreSections, Section};
/// let mut core = CoreSections::parse("# SOUL\nA travel agent.\n\n# TOOLS\n\n# RULE\n\n# USER\nAna.\n")?;
/// assert_eq!(core.get(Section::User), "Ana.");
/// core.set(Section::Rule, "- No night trains.")?;
/// assert!(core.set(Section::Rule, "# SOUL\nsneaky").is_err()); // a heading would change the file
/// assert!(core.render().contains("# RULE\n\n- No night trains.\n"));
/// assert!(CoreSections::parse("# SOUL\n").is_err()); // TOOLS, RULE and USER are missing
/// # Ok::<(), haema_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CoreSections(BTreeMap<Section, String>);

impl CoreSections {
    /// Parses core.md. Exactly one `# SOUL`, `# TOOLS`, `# RULE` and `# USER` heading each,
    /// no other level-one heading, and no text before the first heading. Lines inside
    /// fenced code blocks are never headings.
    pub fn parse(markdown: &str) -> Result<Self> {
        let mut sections: BTreeMap<Section, Vec<&str>> = BTreeMap::new();
        let mut current: Option<Section> = None;
        let mut fence: Option<&str> = None;
        for (number, line) in markdown.lines().enumerate() {
            let trimmed = line.trim_start();
            if let Some(marker) = fence {
                if trimmed.starts_with(marker) {
                    fence = None;
                }
            } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = Some(&trimmed[..3]);
            } else if let Some(title) = heading(line) {
                let section: Section = title.parse().map_err(|_| {
                    Invalid::CoreFormat(format!(
                        "core.md line {}: `# {title}` is not a core section; only # SOUL, # TOOLS, # RULE and # USER may be level-one headings (use ## for sub-headings)",
                        number + 1
                    ))
                })?;
                if sections.contains_key(&section) {
                    return Err(Invalid::CoreFormat(format!(
                        "core.md line {}: section # {section} appears twice",
                        number + 1
                    )));
                }
                sections.insert(section, Vec::new());
                current = Some(section);
                continue;
            }
            match current {
                Some(section) => sections.entry(section).or_default().push(line),
                None if line.trim().is_empty() => {}
                None => {
                    return Err(Invalid::CoreFormat(format!(
                        "core.md line {}: text before the first section heading; put it under # SOUL, # TOOLS, # RULE or # USER",
                        number + 1
                    )));
                }
            }
        }
        // A code block still open at the end of the file ends there (as in CommonMark): its
        // closing fence is written out, so that the section stays a closed block wherever it
        // is rendered (sections are rendered in a fixed order).
        if let (Some(marker), Some(section)) = (fence, current) {
            sections.entry(section).or_default().push(marker);
        }
        let missing: Vec<&str> = Section::ALL
            .iter()
            .filter(|s| !sections.contains_key(s))
            .map(|s| s.name())
            .collect();
        if !missing.is_empty() {
            return Err(Invalid::CoreFormat(format!(
                "core.md lacks the section heading(s) {}",
                missing.iter().map(|m| format!("# {m}")).collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(Self(
            sections
                .into_iter()
                .map(|(s, lines)| (s, trim_blank_lines(&lines.join("\n"))))
                .collect(),
        ))
    }

    /// The text of one section.
    pub fn get(&self, section: Section) -> &str {
        self.0.get(&section).map_or("", String::as_str)
    }

    /// Replaces one section's text.
    pub fn set(&mut self, section: Section, text: &str) -> Result<()> {
        // A level-one heading inside a section would change the file's structure.
        let probe = format!("# {section}\n{text}");
        let rendered = Section::ALL
            .iter()
            .map(|s| if *s == section { probe.clone() } else { format!("# {s}") })
            .collect::<Vec<_>>()
            .join("\n");
        Self::parse(&rendered)
            .map_err(|e| Invalid::CoreFormat(format!("the new {section} text is not allowed: {e}")))?;
        self.0.insert(section, trim_blank_lines(text));
        Ok(())
    }

    /// Sections as `(name, text)` pairs in file order.
    pub fn iter(&self) -> impl Iterator<Item = (Section, &str)> {
        Section::ALL.into_iter().map(|s| (s, self.get(s)))
    }

    /// Renders the file.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, (section, text)) in self.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&format!("# {section}\n"));
            if !text.is_empty() {
                out.push('\n');
                out.push_str(text);
                out.push('\n');
            }
        }
        out
    }
}

fn heading(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("# ")?;
    let title = rest.trim();
    (!title.is_empty()).then_some(title)
}

fn trim_blank_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end]
        .iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn template_round_trips() {
        let parsed = CoreSections::parse(TEMPLATE).unwrap();
        assert!(parsed.iter().all(|(_, t)| t.is_empty()));
        assert_eq!(parsed.render(), TEMPLATE);
    }

    #[test]
    fn sections_parse_in_any_order_and_render_in_file_order() {
        let md = "# USER\n\n- likes tea\n\n# RULE\n- never delete\n# SOUL\nkind\n\n\n# TOOLS\n";
        let parsed = CoreSections::parse(md).unwrap();
        assert_eq!(parsed.get(Section::User), "- likes tea");
        assert_eq!(parsed.get(Section::Rule), "- never delete");
        assert_eq!(
            parsed.render(),
            "# SOUL\n\nkind\n\n# TOOLS\n\n# RULE\n\n- never delete\n\n# USER\n\n- likes tea\n"
        );
    }

    #[test]
    fn substring_headings_that_haema_accepted_are_rejected() {
        assert!(CoreSections::parse("## SOUL\n## TOOLS\n## RULE\n## USER\n").is_err());
        assert!(CoreSections::parse("# SOUL # TOOLS # RULE # USER").is_err());
        let err = CoreSections::parse("# SOUL\n# TOOLS\n# RULE\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("# USER"), "{err}");
        let err = CoreSections::parse("# SOUL\n# TOOLS\n# RULE\n# USER\n# NOTES\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("NOTES"), "{err}");
        let err = CoreSections::parse("# SOUL\n# SOUL\n# TOOLS\n# RULE\n# USER\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("twice"), "{err}");
        assert!(CoreSections::parse("hello\n# SOUL\n# TOOLS\n# RULE\n# USER\n").is_err());
    }

    #[test]
    fn a_code_block_open_at_the_end_is_closed_so_any_order_renders_back() {
        let markdown = "# USER\n- Lisbon\n# TOOLS\n# RULE\n- Never share the address.\n# SOUL\n~~~\nnotes";
        let sections = CoreSections::parse(markdown).unwrap();
        assert_eq!(sections.get(Section::Soul), "~~~\nnotes\n~~~");
        let rendered = sections.render();
        assert_eq!(CoreSections::parse(&rendered).unwrap(), sections, "{rendered}");
    }

    #[test]
    fn headings_inside_code_fences_are_text() {
        let md = "# SOUL\n```\n# not a heading\n```\n# TOOLS\n# RULE\n# USER\n";
        let parsed = CoreSections::parse(md).unwrap();
        assert_eq!(parsed.get(Section::Soul), "```\n# not a heading\n```");
    }

    #[test]
    fn set_rejects_text_that_breaks_the_structure() {
        let mut core = CoreSections::parse(TEMPLATE).unwrap();
        core.set(Section::User, "## Likes\n- tea").unwrap();
        assert_eq!(core.get(Section::User), "## Likes\n- tea");
        assert!(core.set(Section::User, "# RULE\nsneaky").is_err());
        assert_eq!(core.get(Section::User), "## Likes\n- tea");
    }
}
