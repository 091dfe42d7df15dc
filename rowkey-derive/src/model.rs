//! The lowered key: what code generation needs and nothing it could misread. Built only from an
//! input that passed validation, so every field has exactly one encoding.

use syn::{Generics, Ident, Type, Visibility};

use crate::ast::{Input, TyClass};

pub struct Key<'a> {
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    pub fields: Vec<KeyField<'a>>,
    pub salt: Option<Salt>,
    pub limit: usize,
    pub allow_hotspot: bool,
}

/// The salt byte: a hash of fields `0..=field` modulo `buckets`.
pub struct Salt {
    pub field: usize,
    pub buckets: u16,
}

pub struct KeyField<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub codec: Codec,
    pub desc: bool,
    pub order: Order,
    pub class: TyClass,
    /// The attributes as written, for the layout docs.
    pub attributes: Vec<String>,
}

/// The field's encoding, one per field; `desc` wraps it.
#[derive(Clone, Copy)]
pub enum Codec {
    Natural,
    Fixed(usize),
    MaxLen(usize),
    ReverseTs,
    Reverse,
    Md5(usize),
}

#[derive(Clone, Copy)]
pub enum Order {
    Ascending,
    Descending,
    Unordered,
}

impl<'a> Key<'a> {
    pub fn from_ast(input: &Input<'a>) -> Self {
        let fields = input
            .fields
            .iter()
            .map(|f| {
                let a = &f.attrs;
                let codec = if let Some(n) = a.fixed {
                    Codec::Fixed(n.value)
                } else if let Some(n) = a.max_len {
                    Codec::MaxLen(n.value)
                } else if let Some(n) = a.hash {
                    Codec::Md5(n.value)
                } else if a.reverse_ts.is_some() {
                    Codec::ReverseTs
                } else if a.reverse.is_some() {
                    Codec::Reverse
                } else {
                    Codec::Natural
                };
                let order = match codec {
                    Codec::Reverse | Codec::Md5(_) => Order::Unordered,
                    Codec::ReverseTs => Order::Descending,
                    _ if a.desc.is_some() => Order::Descending,
                    _ => Order::Ascending,
                };
                KeyField {
                    ident: f.ident,
                    ty: f.ty,
                    codec,
                    desc: a.desc.is_some(),
                    order,
                    class: f.class,
                    attributes: a.rendered.clone(),
                }
            })
            .collect();
        let salt = input.fields.iter().enumerate().find_map(|(i, f)| {
            f.attrs.salt.map(|s| Salt {
                field: i,
                buckets: s.value,
            })
        });
        Key {
            ident: input.ident,
            vis: input.vis,
            generics: input.generics,
            fields,
            salt,
            limit: input.attrs.limit(),
            allow_hotspot: input.attrs.allow_hotspot.is_some(),
        }
    }

    /// Fields that feed the salt hash and are written before the rest.
    pub fn head(&self) -> &[KeyField<'a>] {
        match &self.salt {
            Some(s) => &self.fields[..=s.field],
            None => &[],
        }
    }

    /// Fields after the salted one (all fields of an unsalted key).
    pub fn tail(&self) -> &[KeyField<'a>] {
        match &self.salt {
            Some(s) => &self.fields[s.field + 1..],
            None => &self.fields,
        }
    }
}
