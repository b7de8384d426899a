//! What the SM9 tower's levels share. GF(p²), GF(p⁴) and GF(p¹²) are each a vector of
//! coefficients over the level below (`c0 + c1·u`, `c0 + c1·v`, `c0 + c1·w + c2·w²`), so every
//! operation that works coefficient by coefficient (addition, subtraction, negation, doubling,
//! the zero test, constant-time equality and selection, zeroizing, a random element, the backend
//! conversion) and the operator impls are written once here, in [`tower_type!`], and
//! instantiated for [`Fp2`](crate::Fp2), [`Fp4`](crate::Fp4) and [`Fp12`](crate::Fp12). The
//! products, the constants and the encodings are each level's own.

/// The coefficient-wise part of a tower type `$T<B>` whose coefficients `$c` are of the type
/// `$C` (a type with the same inherent operations): see the module docs.
macro_rules! tower_type {
    ($T:ident over $C:ident: $($c:ident),+) => {
        impl<B: $crate::Backend> Clone for $T<B> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<B: $crate::Backend> Copy for $T<B> {}

        impl<B: $crate::Backend> $T<B> {
            /// The same value computed by another backend.
            #[inline(always)]
            pub const fn to_backend<B2: $crate::Backend>(&self) -> $T<B2> {
                $T {
                    $($c: self.$c.to_backend()),+
                }
            }

            /// `self + rhs`.
            #[inline(always)]
            pub fn add(&self, rhs: &Self) -> Self {
                Self {
                    $($c: self.$c.add(&rhs.$c)),+
                }
            }

            /// `self − rhs`.
            #[inline(always)]
            pub fn sub(&self, rhs: &Self) -> Self {
                Self {
                    $($c: self.$c.sub(&rhs.$c)),+
                }
            }

            /// `−self`.
            #[inline(always)]
            pub fn neg(&self) -> Self {
                Self {
                    $($c: self.$c.neg()),+
                }
            }

            /// `2·self`.
            #[inline(always)]
            pub fn double(&self) -> Self {
                Self {
                    $($c: self.$c.double()),+
                }
            }

            /// Whether the element is zero.
            #[inline]
            pub fn is_zero(&self) -> subtle::Choice {
                $(self.$c.is_zero())&+
            }

            /// Whether the element is zero, with branches (public values only).
            #[inline]
            pub fn is_zero_vartime(&self) -> bool {
                $(self.$c.is_zero_vartime())&&+
            }

            /// A uniformly random element (the coefficients drawn in order).
            pub fn random(rng: &mut impl rand_core::CryptoRng) -> Self {
                Self {
                    $($c: $C::random(rng)),+
                }
            }
        }

        impl<B: $crate::Backend> Default for $T<B> {
            fn default() -> Self {
                Self::ZERO
            }
        }

        impl<B: $crate::Backend> subtle::ConstantTimeEq for $T<B> {
            fn ct_eq(&self, other: &Self) -> subtle::Choice {
                $(self.$c.ct_eq(&other.$c))&+
            }
        }

        impl<B: $crate::Backend> subtle::ConditionallySelectable for $T<B> {
            #[inline(always)]
            fn conditional_select(a: &Self, b: &Self, choice: subtle::Choice) -> Self {
                Self {
                    $($c: subtle::ConditionallySelectable::conditional_select(
                        &a.$c, &b.$c, choice,
                    )),+
                }
            }
        }

        impl<B: $crate::Backend> PartialEq for $T<B> {
            fn eq(&self, other: &Self) -> bool {
                subtle::ConstantTimeEq::ct_eq(self, other).into()
            }
        }
        impl<B: $crate::Backend> Eq for $T<B> {}

        impl<B: $crate::Backend> zeroize::Zeroize for $T<B> {
            fn zeroize(&mut self) {
                $(self.$c.zeroize();)+
            }
        }

        $crate::tower::tower_ops!($T);
    };
}
pub(crate) use tower_type;

/// Operator impls (`+ − ×` on values and references, assign forms, unary `−`) for a tower type
/// with inherent `add`, `sub`, `mul`, `neg`.
macro_rules! tower_ops {
    ($T:ident) => {
        impl<B: $crate::Backend> core::ops::Neg for $T<B> {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $T::neg(&self)
            }
        }
        impl<B: $crate::Backend> core::ops::Neg for &$T<B> {
            type Output = $T<B>;
            #[inline(always)]
            fn neg(self) -> $T<B> {
                $T::neg(self)
            }
        }
        $crate::tower::tower_ops!(@bin $T, Add, add, AddAssign, add_assign);
        $crate::tower::tower_ops!(@bin $T, Sub, sub, SubAssign, sub_assign);
        $crate::tower::tower_ops!(@bin $T, Mul, mul, MulAssign, mul_assign);
    };
    (@bin $T:ident, $Tr:ident, $f:ident, $TrA:ident, $fa:ident) => {
        impl<B: $crate::Backend> core::ops::$Tr<$T<B>> for $T<B> {
            type Output = $T<B>;
            #[inline(always)]
            fn $f(self, rhs: $T<B>) -> $T<B> {
                $T::$f(&self, &rhs)
            }
        }
        impl<'a, B: $crate::Backend> core::ops::$Tr<&'a $T<B>> for $T<B> {
            type Output = $T<B>;
            #[inline(always)]
            fn $f(self, rhs: &'a $T<B>) -> $T<B> {
                $T::$f(&self, rhs)
            }
        }
        impl<'a, B: $crate::Backend> core::ops::$Tr<$T<B>> for &'a $T<B> {
            type Output = $T<B>;
            #[inline(always)]
            fn $f(self, rhs: $T<B>) -> $T<B> {
                $T::$f(self, &rhs)
            }
        }
        impl<'a, 'b, B: $crate::Backend> core::ops::$Tr<&'b $T<B>> for &'a $T<B> {
            type Output = $T<B>;
            #[inline(always)]
            fn $f(self, rhs: &'b $T<B>) -> $T<B> {
                $T::$f(self, rhs)
            }
        }
        impl<B: $crate::Backend> core::ops::$TrA<$T<B>> for $T<B> {
            #[inline(always)]
            fn $fa(&mut self, rhs: $T<B>) {
                *self = $T::$f(self, &rhs);
            }
        }
        impl<'a, B: $crate::Backend> core::ops::$TrA<&'a $T<B>> for $T<B> {
            #[inline(always)]
            fn $fa(&mut self, rhs: &'a $T<B>) {
                *self = $T::$f(self, rhs);
            }
        }
    };
}
pub(crate) use tower_ops;
