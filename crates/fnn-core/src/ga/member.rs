//! A member of the population: a design, its evaluation and its age.

use super::eval::{Eval, Terms};
use super::genome::Genome;
use super::problem::Problem;

#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub genome: Genome,
    pub eval: Eval,
    /// Generations this design has survived unchanged.
    pub age: u64,
}

impl Member {
    /// A new member of `problem`, evaluated in full.
    pub fn new(problem: &Problem, genome: Genome) -> Member {
        let eval = Eval::full(problem, &genome);
        Member { genome, eval, age: 0 }
    }

    pub fn terms(&self) -> &Terms {
        &self.eval.terms
    }

    pub fn fitness(&self) -> f64 {
        self.eval.total
    }
}
