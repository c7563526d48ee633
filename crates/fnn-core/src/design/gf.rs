//! Finite fields GF(q) for prime powers q, as lookup tables: just enough
//! arithmetic to build the projective and affine planes the constructions
//! use. Elements are 0..q; an element is a polynomial over GF(p) whose
//! coefficients are its base-p digits, reduced modulo an irreducible
//! polynomial found by search.

pub struct Field {
    q: usize,
    add: Vec<u16>,
    mul: Vec<u16>,
}

/// `Some((p, k))` when `q = p^k` for a prime p.
pub(crate) fn prime_power(q: usize) -> Option<(usize, u32)> {
    if q < 2 {
        return None;
    }
    let p = (2..=q).find(|d| q.is_multiple_of(*d))?;
    let mut k = 0;
    let mut r = q;
    while r.is_multiple_of(p) {
        r /= p;
        k += 1;
    }
    (r == 1).then_some((p, k))
}

impl Field {
    /// The field of order `q`, or `None` when q is not a prime power (or
    /// too large for the tables, which grow as q^2).
    pub fn new(q: usize) -> Option<Field> {
        let (p, k) = prime_power(q)?;
        if q > 1024 {
            return None;
        }
        let digits = |x: usize| (0..k).map(move |i| (x / p.pow(i)) % p);
        let from = |d: &[usize]| d.iter().rev().fold(0, |acc, &c| acc * p + c);
        let mut add = vec![0u16; q * q];
        for a in 0..q {
            for b in 0..q {
                let s: Vec<usize> = digits(a).zip(digits(b)).map(|(x, y)| (x + y) % p).collect();
                add[a * q + b] = from(&s) as u16;
            }
        }
        // The monic polynomials of degree k are p^k; the first whose
        // multiplication has no zero divisors is irreducible.
        (0..q).find_map(|low| {
            let mut modulus: Vec<usize> = digits(low).collect();
            modulus.push(1);
            let mul = multiplication(p, k as usize, &modulus, &digits, &from, q)?;
            Some(Field {
                q,
                add: add.clone(),
                mul,
            })
        })
    }

    pub fn order(&self) -> usize {
        self.q
    }

    pub fn add(&self, a: usize, b: usize) -> usize {
        self.add[a * self.q + b] as usize
    }

    pub(crate) fn mul(&self, a: usize, b: usize) -> usize {
        self.mul[a * self.q + b] as usize
    }
}

/// The multiplication table modulo `modulus` (monic, degree k), or `None`
/// when two non-zero elements multiply to zero (the modulus factors).
fn multiplication<D, I>(
    p: usize,
    k: usize,
    modulus: &[usize],
    digits: &D,
    from: &dyn Fn(&[usize]) -> usize,
    q: usize,
) -> Option<Vec<u16>>
where
    D: Fn(usize) -> I,
    I: Iterator<Item = usize>,
{
    let mut mul = vec![0u16; q * q];
    for a in 1..q {
        let da: Vec<usize> = digits(a).collect();
        for b in 1..q {
            let db: Vec<usize> = digits(b).collect();
            let mut prod = vec![0usize; 2 * k];
            for (i, x) in da.iter().enumerate() {
                for (j, y) in db.iter().enumerate() {
                    prod[i + j] = (prod[i + j] + x * y) % p;
                }
            }
            // Reduce from the top: x^k = -(lower terms of the modulus).
            for top in (k..2 * k).rev() {
                let c = prod[top];
                if c == 0 {
                    continue;
                }
                prod[top] = 0;
                for (i, m) in modulus[..k].iter().enumerate() {
                    let t = top - k + i;
                    prod[t] = (prod[t] + (p - c) * m) % p;
                }
            }
            let v = from(&prod[..k]);
            if v == 0 {
                return None;
            }
            mul[a * q + b] = v as u16;
        }
    }
    Some(mul)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prime_powers_are_recognised() {
        assert_eq!(prime_power(8), Some((2, 3)));
        assert_eq!(prime_power(9), Some((3, 2)));
        assert_eq!(prime_power(7), Some((7, 1)));
        assert_eq!(prime_power(6), None);
        assert_eq!(prime_power(1), None);
        assert!(Field::new(10).is_none());
    }

    #[test]
    fn fields_obey_the_axioms() {
        for q in [2, 3, 4, 5, 7, 8, 9, 16, 25, 27] {
            let f = Field::new(q).expect("a prime power");
            for a in 0..q {
                assert_eq!(f.add(a, 0), a);
                assert_eq!(f.mul(a, 1), a, "q={q} a={a}");
                // Every element has an additive inverse, every non-zero one a
                // multiplicative inverse.
                assert!((0..q).any(|b| f.add(a, b) == 0));
                if a != 0 {
                    assert!((1..q).any(|b| f.mul(a, b) == 1), "q={q} a={a}");
                }
                for b in 0..q {
                    assert_eq!(f.mul(a, b), f.mul(b, a));
                    for c in [1, q - 1] {
                        // Distributivity on a sample of c.
                        assert_eq!(f.mul(a, f.add(b, c)), f.add(f.mul(a, b), f.mul(a, c)));
                    }
                }
            }
        }
    }
}
