//! What is unsaved, in the user's words, for the status bar's marker and
//! the question before it is lost: the user's own edits (pins, forbids,
//! weights, a restart) apart from the search's progress, which counts
//! only once it found a better design than the one saved (a generation
//! that found nothing new loses nothing).

/// The kinds of edit made since the last save.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Edits {
    pub pins: bool,
    pub forbids: bool,
    pub weights: bool,
    pub restart: bool,
}

impl Edits {
    /// The kinds of both.
    pub fn and(self, other: Edits) -> Edits {
        Edits {
            pins: self.pins || other.pins,
            forbids: self.forbids || other.forbids,
            weights: self.weights || other.weights,
            restart: self.restart || other.restart,
        }
    }

    /// "pins and weights"; `None` when no kind was recorded.
    pub fn words(&self) -> Option<String> {
        let kinds: Vec<&str> = [
            (self.pins, "pins"),
            (self.forbids, "forbids"),
            (self.weights, "weights and GA parameters"),
            (self.restart, "the restart with a new seed"),
        ]
        .into_iter()
        .filter_map(|(on, w)| on.then_some(w))
        .collect();
        match kinds.as_slice() {
            [] => None,
            [one] => Some((*one).into()),
            [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
        }
    }
}

/// What would be lost now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unsaved {
    /// The user's edits since the last save (`None`: none).
    pub edits: Option<Edits>,
    /// The search's progress: a better design than the one saved.
    pub better_design: bool,
    /// Nothing of this run was ever saved (a session opened counts as saved).
    pub never_saved: bool,
}

impl Unsaved {
    pub fn any(&self) -> bool {
        self.edits.is_some() || self.better_design
    }

    /// The status bar's marker, `None` when everything is saved.
    pub fn marker(&self) -> Option<&'static str> {
        match (self.edits.is_some(), self.better_design) {
            (true, true) => Some("● unsaved edits, design"),
            (true, false) => Some("● unsaved edits"),
            (false, true) => Some("● unsaved design"),
            (false, false) => None,
        }
    }

    /// One line per thing that would be lost, for the question.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(e) = self.edits {
            out.push(match e.words() {
                Some(w) => format!("Your edits since the last save are not saved: {w}."),
                None => "Your edits since the last save are not saved.".into(),
            });
        }
        if self.better_design && self.never_saved {
            out.push("The search's design has never been saved.".into());
        } else if self.better_design {
            out.push("The search found a better design since the last save.".into());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_unsaved_is_named() {
        let pins = Edits {
            pins: true,
            forbids: true,
            ..Default::default()
        };
        assert_eq!(pins.words().as_deref(), Some("pins and forbids"));
        assert_eq!(Edits::default().words(), None);
        let u = Unsaved {
            edits: Some(pins),
            ..Default::default()
        };
        assert_eq!(u.marker(), Some("● unsaved edits"));
        assert_eq!(
            u.lines(),
            ["Your edits since the last save are not saved: pins and forbids."]
        );
        let design = Unsaved {
            better_design: true,
            ..Default::default()
        };
        assert_eq!(design.marker(), Some("● unsaved design"));
        assert!(design.lines()[0].contains("better design"));
        assert_eq!(Unsaved::default().marker(), None);
        assert!(!Unsaved::default().any());
    }
}
