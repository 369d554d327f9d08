#!/usr/bin/env python3
"""Compares the shape of ModelRuntime's public Linux API with Apple's Core Data.

Both sides are Swift interfaces printed by the same printer (`swift-synthesize-interface`): the
ModelRuntime module as built on Linux, and the reference modules of Apple's SDK (Core Data with
its Swift overlay, Foundation, ObjectiveC). For every declaration ModelRuntime makes that the
reference also makes — a type, a member, a global constant or function — it compares what decides
whether code written against one compiles against the other: the kind of declaration, `open` or
`public` (and `final`), the kind of an initialiser (designated, convenience, required, failable),
argument labels and which arguments have defaults, the types of parameters and results (so
optionality), `async`/`throws`/`rethrows`, `static` or `class`, whether a property is settable,
generic signatures, global-actor isolation, `@discardableResult`, enum raw values, superclasses
and conformances (a conformance ModelRuntime adds that the reference does not have, `Sendable`
above all, and one the reference has that ModelRuntime lacks). It also compares the values of
Core Data's error codes (`CoreDataErrors.h`) with ModelRuntime's.

Every difference is a line `category | symbol | detail`. A difference listed in the known
differences file (with its reason) is accepted; any other fails the check, and so does a listed
difference that no longer occurs (the list stays exact). Declarations ModelRuntime makes that
the reference does not are not differences: they are written to a separate report for review,
as are the reference's members of compared types that ModelRuntime does not provide.

Usage:
  apishape.py --runtime ModelRuntime.swift --reference CoreData.swift --reference Foundation.swift
              [--reference ObjectiveC.swift] [--errors-header CoreDataErrors.h --runtime-sources DIR]
              --known known-differences.txt [--report-dir DIR]
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field

MODULE_PREFIXES = ("ModelRuntime", "ModelSchema", "ModelStore", "CoreData", "Foundation", "Swift", "ObjectiveC", "Dispatch",
                   "_Concurrency", "Combine", "Synchronization", "FoundationEssentials")
PREFIX_RE = re.compile(r"\b(?:%s)\." % "|".join(MODULE_PREFIXES))
MODIFIER_WORDS = {
    "open", "public", "internal", "private", "fileprivate", "package", "final", "static", "convenience", "required",
    "override", "mutating", "nonmutating", "dynamic", "optional", "weak", "unowned", "lazy", "nonisolated", "indirect",
    "prefix", "postfix", "infix", "distributed", "__consuming", "consuming", "borrowing",
}
TYPE_KEYWORDS = {"class", "struct", "enum", "protocol", "actor", "extension"}
# Attributes that change how client code compiles; the others (availability, documentation) are ignored.
KEPT_ATTRIBUTES = {"@MainActor", "@discardableResult", "@objc", "@preconcurrency"}


def strip_modules(text: str) -> str:
    return PREFIX_RE.sub("", text)


def normalize_type(text: str) -> str:
    t = strip_modules(text.strip())
    t = re.sub(r"\b__shared\s+|\b__owned\s+|\bborrowing\s+|\bconsuming\s+", "", t)
    t = re.sub(r"\s+", " ", t)
    t = re.sub(r"\s*([,:])\s*", r"\1 ", t)
    t = re.sub(r"\s*(->)\s*", r" \1 ", t)
    t = re.sub(r"([<\[(])\s+", r"\1", t)
    t = re.sub(r"\s+([>\])])", r"\1", t)
    t = t.replace("@unchecked ", "")
    # Parameter names inside a function type are documentation only.
    t = re.sub(r"(?<=[(,] )_ [A-Za-z_][A-Za-z0-9_]*: |(?<=\()_ [A-Za-z_][A-Za-z0-9_]*: ", "", t)
    # Foundation's `Notification.Name` is `NSNotification.Name`.
    t = re.sub(r"(?<![A-Za-z0-9_.])Notification\.Name\b", "NSNotification.Name", t)
    return t.strip()


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """Splits at `sep` outside brackets, parentheses, angle brackets and string literals."""
    parts, depth, current, in_string, i = [], 0, [], False, 0
    while i < len(text):
        c = text[i]
        if in_string:
            current.append(c)
            if c == "\\" and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            current.append(c)
        elif c in "([<{":
            depth += 1
            current.append(c)
        elif c in ")]}":
            depth -= 1
            current.append(c)
        elif c == ">" and i > 0 and text[i - 1] == "-":
            current.append(c)  # the arrow of a function type
        elif c == ">":
            depth -= 1
            current.append(c)
        elif c == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    if "".join(current).strip():
        parts.append("".join(current))
    return [p.strip() for p in parts]


def balanced_end(text: str, start: int, open_c: str, close_c: str) -> int:
    """Index just past the bracket closing the one at `start`."""
    depth, i, in_string = 0, start, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == open_c:
            depth += 1
        elif c == close_c and not (close_c == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced %s in %r" % (open_c, text))


@dataclass
class Param:
    label: str
    type: str
    has_default: bool


@dataclass
class Decl:
    kind: str  # class struct enum protocol actor typealias associatedtype func init subscript var let case
    name: str
    owner: str  # the enclosing type's path, "" for a global
    access: str = "internal"
    modifiers: set = field(default_factory=set)
    attributes: set = field(default_factory=set)
    params: list = field(default_factory=list)
    result: str = ""
    effects: str = ""
    failable: str = ""
    generics: str = ""
    where: str = ""
    settable: bool = False
    raw_value: str = ""
    inherits: list = field(default_factory=list)
    in_extension: bool = False
    owner_kind: str = ""
    line: int = 0
    module: str = ""

    @property
    def is_type(self) -> bool:
        return self.kind in ("class", "struct", "enum", "protocol", "actor")

    @property
    def type_member(self) -> bool:
        return "static" in self.modifiers or "class" in self.modifiers

    @property
    def signature(self) -> str:
        if self.kind in ("func", "init", "subscript"):
            base = "init" if self.kind == "init" else ("subscript" if self.kind == "subscript" else self.name)
            return "%s(%s)" % (base, "".join((p.label or "_") + ":" for p in self.params))
        if self.kind == "case" and self.params:
            return "%s(%s)" % (self.name, "".join((p.label or "_") + ":" for p in self.params))
        return self.name

    @property
    def symbol(self) -> str:
        sig = self.signature
        if self.type_member and self.kind not in ("init",):
            sig = "static " + sig if "static" in self.modifiers else "class " + sig
        return (self.owner + "." if self.owner else "") + sig

    @property
    def key(self):
        group = {"let": "var", "case": "case"}.get(self.kind, self.kind)
        if self.is_type or self.kind in ("typealias", "associatedtype"):
            group = "type"
        return (self.owner, group, self.signature, self.type_member and self.kind != "init")

    @property
    def full_signature(self) -> str:
        return "(%s)%s -> %s" % (", ".join(p.type for p in self.params), self.effects, self.result)


class Interface:
    """The declarations of one or more printed interfaces."""

    def __init__(self):
        self.decls: list[Decl] = []
        self.types: dict[str, Decl] = {}  # path -> type declaration (first seen)
        self.conformances: dict[str, set] = {}  # path -> names of conformances and superclass
        self.extension_conformances: dict[str, set] = {}  # conformances added by extensions
        self.members: dict[tuple, list] = {}
        self.typealiases: dict[str, str] = {}
        self.module = ""  # the module of the interface being read

    def add(self, d: Decl):
        d.module = self.module
        # The printer writes a module's global variables twice (the second time without their
        # accessors); the first is the declaration.
        if not d.owner and d.kind == "var" and d.key in self.members:
            return
        # A protocol extension's member with a requirement's signature is that requirement's
        # default implementation, not API of its own.
        if d.in_extension and d.key in self.members and any(
                m.owner_kind == "protocol" for m in self.members[d.key]):
            return
        self.decls.append(d)
        if d.is_type or d.kind in ("typealias", "associatedtype"):
            path = (d.owner + "." if d.owner else "") + d.name
            if path not in self.types:
                self.types[path] = d
            if d.kind == "typealias" and d.result:
                self.typealiases[path] = d.result
        self.members.setdefault(d.key, []).append(d)

    def kind_of(self, path: str) -> str:
        d = self.types.get(path)
        return d.kind if d else ""


def parse_params(text: str) -> list[Param]:
    inner = text.strip()[1:-1].strip()
    if not inner:
        return []
    params = []
    for part in split_top_level(inner):
        has_default = False
        # `label name: Type = default`
        colon = None
        depth = 0
        for i, c in enumerate(part):
            if c in "([<":
                depth += 1
            elif c in ")]>":
                depth -= 1
            elif c == ":" and depth == 0:
                colon = i
                break
        if colon is None:  # an unnamed associated value of an enum case
            params.append(Param("", normalize_type(part), False))
            continue
        names = part[:colon].split()
        rest = part[colon + 1:]
        eq = split_top_level(rest, "=")
        type_text = eq[0]
        has_default = len(eq) > 1
        label = names[0] if names else ""
        if label == "_":
            label = ""
        params.append(Param(label, normalize_type(type_text), has_default))
    return params


def take_attributes(text: str):
    """Leading attributes of `text` and the rest."""
    attrs = []
    text = text.lstrip()
    while text.startswith("@"):
        m = re.match(r"@[A-Za-z_][A-Za-z0-9_]*", text)
        end = m.end()
        if end < len(text) and text[end] == "(":
            end = balanced_end(text, end, "(", ")")
        attrs.append(text[:end])
        text = text[end:].lstrip()
    return attrs, text


def parse_interface(path: str, iface: Interface, overlay: bool = False):
    with open(path, encoding="utf-8") as f:
        source = f.read()
    iface.module = os.path.basename(path).split(".")[0]
    if overlay:
        # A module interface: drop the bodies of inlinable declarations and the compiler checks.
        source = strip_bodies(source)
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    lines = source.split("\n")
    stack: list[tuple[str, str, bool]] = []  # (path, kind, is extension) of open scopes
    pending_attrs: list[str] = []
    for number, raw in enumerate(lines, 1):
        try:
            parse_line(iface, raw, number, stack, pending_attrs)
        except Exception as error:
            raise SystemExit("%s:%d: cannot read %r: %s" % (path, number, raw.strip(), error))


def parse_line(iface: Interface, raw: str, number: int, stack: list, pending: list):
    if True:
        line = raw.strip()
        if not line or line.startswith("//") or line.startswith("import ") or line.startswith("#"):
            return
        if line == "}":
            if stack:
                stack.pop()
            return
        attrs, rest = take_attributes(line)
        pending.extend(attrs)
        if not rest:
            return
        attrs = list(pending)
        pending.clear()
        opens_scope = rest.endswith("{") and not re.search(r"\{\s*(get|set|_read|_modify)\b", rest)
        if opens_scope:
            rest = rest[:-1].rstrip()
        words = rest.split()
        modifiers, access = set(), "internal"
        i = 0
        while i < len(words):
            w = words[i]
            base = re.sub(r"\(.*", "", w)
            if base in ("class",) and i + 1 < len(words) and words[i + 1].split("(")[0] in ("func", "var", "let", "subscript"):
                modifiers.add("class")
            elif base in MODIFIER_WORDS and not w.endswith(":"):
                if base in ("open", "public", "internal", "private", "fileprivate", "package") and "(set)" not in w:
                    access = base
                elif "(set)" in w:
                    modifiers.add("private(set)")
                else:
                    modifiers.add(base)
            else:
                break
            i += 1
        rest = " ".join(words[i:])
        owner, owner_kind, owner_is_ext = stack[-1] if stack else ("", "", False)
        keyword = rest.split(" ", 1)[0].split("<")[0].split("(")[0]
        d = None
        if keyword in TYPE_KEYWORDS:
            body = rest[len(keyword):].strip()
            m = re.match(r"([A-Za-z_][A-Za-z0-9_.]*)", body)
            name = strip_modules(m.group(1))
            body = body[m.end():]
            generics = ""
            if body.startswith("<"):
                end = balanced_end(body, 0, "<", ">")
                generics, body = normalize_type(body[:end]), body[end:]
            where = ""
            wm = re.search(r"\bwhere\b", body)
            if wm:
                where, body = normalize_type(body[wm.end():]), body[:wm.start()]
            inherits = []
            body = body.strip()
            if body.startswith(":"):
                inherits = [normalize_type(x) for x in split_top_level(body[1:])]
            if keyword == "extension":
                path_name = name
                iface.extension_conformances.setdefault(path_name, set()).update(
                    (x + (" where " + where if where else "")) for x in inherits)
                d = Decl("extension", name, "", access, modifiers, set(attrs), inherits=inherits, where=where, line=number)
                iface.decls.append(d)
                if opens_scope:
                    stack.append((path_name, "extension", True))
                return
            full = (owner + "." if owner else "") + name
            d = Decl(keyword, name, owner, access, modifiers, {a for a in attrs if a.split("(")[0] in KEPT_ATTRIBUTES},
                     generics=generics, where=where, inherits=inherits, in_extension=owner_is_ext, owner_kind=owner_kind,
                     line=number)
            iface.add(d)
            iface.conformances.setdefault(full, set()).update(inherits)
            if opens_scope:
                stack.append((full, keyword, False))
            return
        if opens_scope:  # something else with a body: keep the nesting right
            stack.append((owner, owner_kind, owner_is_ext))
        d = Decl("", "", owner, access, modifiers, {a for a in attrs if a.split("(")[0] in KEPT_ATTRIBUTES},
                 in_extension=owner_is_ext, owner_kind=owner_kind, line=number)
        if owner_kind == "protocol" and access == "internal":
            d.access = "public"
        if keyword in ("func", "init", "subscript"):
            body = rest[len(keyword):]
            if keyword == "func":
                body = body.strip()
                m = re.match(r"`?[A-Za-z_][A-Za-z0-9_]*`?|[-+*/%<>=!&|^~?.]+", body)
                d.name = m.group(0).strip("`")
                body = body[m.end():].strip()
            elif keyword == "init":
                d.name = "init"
                if body[:1] in ("?", "!"):
                    d.failable, body = body[0], body[1:]
            else:
                d.name = "subscript"
            body = body.strip()
            if body.startswith("<"):
                end = balanced_end(body, 0, "<", ">")
                d.generics, body = normalize_type(body[:end]), body[end:].strip()
            end = balanced_end(body, 0, "(", ")")
            d.params = parse_params(body[:end])
            body = body[end:].strip()
            wm = re.search(r"\bwhere\b", body)
            if wm:
                d.where, body = normalize_type(body[wm.end():]), body[:wm.start()].strip()
            if keyword == "subscript":
                am = re.search(r"\{\s*(get[^}]*)\}\s*$", body)
                if am:
                    d.settable = "set" in am.group(1)
                    body = body[:am.start()].strip()
            arrow = body.find("->")
            effects = body[:arrow] if arrow >= 0 else body
            d.effects = " ".join(e for e in effects.split() if e in ("async", "throws", "rethrows") or e.startswith("throws("))
            d.result = normalize_type(body[arrow + 2:]) if arrow >= 0 else ("Void" if keyword == "func" else "")
            d.kind = keyword
        elif keyword in ("var", "let"):
            body = rest[len(keyword):].strip()
            m = re.match(r"`?([A-Za-z_][A-Za-z0-9_]*)`?\s*:\s*(.*)$", body)
            if not m:
                return
            d.name = m.group(1)
            type_text = m.group(2)
            am = re.search(r"\{\s*([^}]*)\}\s*$", type_text)
            if am:
                accessors = am.group(1)
                type_text = type_text[:am.start()]
                d.settable = "set" in accessors.split()
            else:
                d.settable = keyword == "var" and "private(set)" not in modifiers
            if "private(set)" in modifiers:
                d.settable = False
            eq = split_top_level(type_text, "=")
            d.result = normalize_type(eq[0])
            d.kind = "var"
            if keyword == "let":
                d.settable = False
        elif keyword == "case":
            body = rest[len(keyword):].strip()
            for part in split_top_level(body):
                c = Decl("case", "", owner, "public", set(), set(), in_extension=owner_is_ext, owner_kind=owner_kind,
                         line=number)
                eq = split_top_level(part, "=")
                head = eq[0].strip()
                if len(eq) > 1:
                    c.raw_value = eq[1].strip()
                pm = head.find("(")
                if pm >= 0:
                    c.name = head[:pm].strip().strip("`")
                    c.params = parse_params(head[pm:])
                else:
                    c.name = head.strip("`")
                iface.add(c)
            return
        elif keyword in ("typealias", "associatedtype"):
            body = rest[len(keyword):].strip()
            m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)", body)
            d.name = m.group(1)
            body = body[m.end():].strip()
            if body.startswith("<"):
                end = balanced_end(body, 0, "<", ">")
                d.generics, body = normalize_type(body[:end]), body[end:].strip()
            if body.startswith("="):
                d.result = normalize_type(body[1:])
            elif body.startswith(":"):
                d.inherits = [normalize_type(x) for x in split_top_level(body[1:])]
            d.kind = keyword
        elif keyword in ("deinit", "operator", "precedencegroup", "macro"):
            return
        else:
            return
        iface.add(d)


def strip_bodies(source: str) -> str:
    """A `.swiftinterface` with function bodies and `#if` lines removed, so it reads like the
    printer's output: a line ending in `{` that does not open a type or extension starts a body."""
    out, skipping, depth = [], False, 0
    for line in source.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if skipping:
            depth += line.count("{") - line.count("}")
            if depth <= 0:
                skipping = False
            continue
        if stripped.endswith("{") and not re.search(
                r"\b(class|struct|enum|protocol|extension|actor)\b[^(]*\{$", stripped) and not re.search(r"\b(var|subscript)\b", stripped):
            out.append(stripped[:-1].rstrip())
            skipping, depth = True, line.count("{") - line.count("}")
            if depth <= 0:
                skipping = False
            continue
        if re.search(r"\b(var|subscript)\b.*\{$", stripped):
            # A property with accessor blocks: keep it as read-only or settable.
            body, d = [stripped], stripped.count("{") - stripped.count("}")
            out.append(stripped[:-1].rstrip() + " { get }")
            skipping, depth = d > 0, d
            continue
        out.append(line)
    return "\n".join(out)


# MARK: comparison


def conformance_names(entries) -> set:
    out = set()
    for e in entries:
        base = e.split(" where ")[0].strip()
        base = base.replace("@unchecked ", "").replace("@preconcurrency ", "").replace("@retroactive ", "").strip()
        out.add(base)
    return out


# What the standard library's protocols imply, so `Hashable` here and `Hashable, Equatable` in the
# reference's printing are the same conformances.
IMPLIED = {
    "Hashable": {"Equatable"},
    "Comparable": {"Equatable"},
    "OptionSet": {"SetAlgebra", "RawRepresentable"},
    "SetAlgebra": {"Equatable", "ExpressibleByArrayLiteral"},
    "Error": {"Sendable"},
    "CodingKey": {"Sendable", "CustomStringConvertible", "CustomDebugStringConvertible"},
    "Codable": {"Encodable", "Decodable"},
}
RAW_TYPES = {"Int", "UInt", "String", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"}


def all_conformances(iface: Interface, path: str, seen=None) -> set:
    names = conformance_names(iface.conformances.get(path, set())) | conformance_names(
        iface.extension_conformances.get(path, set()))
    d = iface.types.get(path)
    if d is not None and d.kind == "class" and d.inherits:
        # A class has its superclass's conformances (`Sendable` included).
        superclass = d.inherits[0].split("<")[0]
        seen = (seen or set()) | {path}
        if superclass not in seen and iface.types.get(superclass) is not None and iface.types[superclass].kind == "class":
            inherited = all_conformances(iface, superclass, seen)
            names.discard(d.inherits[0])
            names |= inherited
    if d is not None and d.kind == "enum":
        if names & RAW_TYPES:
            names |= {"RawRepresentable", "Equatable", "Hashable"}
        elif not any(m.params for m in iface.decls if m.kind == "case" and m.owner == path):
            names |= {"Equatable", "Hashable"}
    queue = list(names)
    while queue:
        for implied in IMPLIED.get(queue.pop(), ()):
            if implied not in names:
                names.add(implied)
                queue.append(implied)
    return names


def init_kind(d: Decl) -> str:
    kinds = []
    if "required" in d.modifiers:
        kinds.append("required")
    kinds.append("convenience" if "convenience" in d.modifiers else "designated")
    return " ".join(kinds)


def member_access(d: Decl) -> str:
    if d.access == "open" and "final" not in d.modifiers:
        return "open"
    if d.kind in ("class",) and "final" in d.modifiers:
        return "final public"
    return d.access if "final" not in d.modifiers else "final " + d.access


def optionality_only(a: str, b: str) -> bool:
    strip = lambda t: re.sub(r"[?!]", "", t)
    return a != b and strip(a) == strip(b)


class Comparison:
    def __init__(self, runtime: Interface, reference: Interface, runtime_protocols: set, overlay: Interface | None = None):
        self.rt = runtime
        self.ref = reference
        self.overlay = overlay
        self.differences: list[str] = []
        self.runtime_only: list[str] = []
        self.not_provided: list[str] = []
        self.runtime_protocols = runtime_protocols

    def diff(self, category: str, symbol: str, detail: str):
        self.differences.append("%s | %s | %s" % (category, symbol, detail))

    def type_exists_in_reference(self, path: str) -> bool:
        return path in self.ref.types

    def run(self):
        compared_types = set()
        # Types ModelRuntime declares.
        for path, d in sorted(self.rt.types.items()):
            if d.kind in ("associatedtype",):
                continue
            ref = self.ref.types.get(path)
            if ref is None:
                self.runtime_only.append("type %s (%s)" % (path, d.kind))
                continue
            compared_types.add(path)
            self.compare_type(path, d, ref)
        # Conformances ModelRuntime adds to types it only extends.
        for path, entries in sorted(self.rt.extension_conformances.items()):
            if path in self.rt.types:
                continue
            for c in sorted(conformance_names(entries)):
                if not c:
                    continue
                if path in self.ref.types and c in all_conformances(self.ref, path):
                    continue
                if c in self.runtime_protocols:
                    self.runtime_only.append("conformance %s: %s" % (path, c))
                elif path in self.ref.types:
                    self.diff("conformance", path, "conforms to %s here, not in the SDK" % c)
                else:
                    self.runtime_only.append("conformance %s: %s" % (path, c))
        # Members and globals.
        for key, decls in sorted(self.rt.members.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3])):
            owner, group, signature, type_member = key
            if group == "type":
                continue
            sample = decls[0]
            if owner and owner not in self.ref.types:
                if owner not in self.rt.types or self.rt.types.get(owner) is None:
                    # an extension of a type the reference does not declare either
                    self.runtime_only.append("member %s" % sample.symbol)
                continue
            refs = self.ref.members.get(key) or self.inherited(owner, group, signature, type_member)
            if not refs and signature in ("rawValue", "init(rawValue:)", "hashValue", "hash(into:)") and owner in self.ref.types:
                # The requirements of the standard library's RawRepresentable and Hashable, which the
                # reference types conform to (the printer does not repeat them for imported types).
                if conformance_names(all_conformances(self.ref, owner)) & {"OptionSet", "RawRepresentable", "Hashable"}:
                    continue
            if not refs:
                # A settable var in one and a method of the same name in the other are different keys;
                # so are a type member here and an instance member there.
                other = self.ref.members.get((owner, group, signature, not type_member))
                if other:
                    self.diff("static", sample.symbol, "a %s member here, a%s member in the SDK" % (
                        "type" if type_member else "instance", " type" if not type_member else "n instance"))
                    continue
                if owner and group == "var":
                    alt = [k for k in self.ref.members if k[0] == owner and k[1] == "func" and k[2].startswith(signature + "(")]
                    if alt:
                        self.diff("kind", sample.symbol, "a property here, a method in the SDK")
                        continue
                if owner and group == "func" and signature.endswith("()"):
                    alt = self.ref.members.get((owner, "var", signature[:-2], type_member))
                    if alt:
                        self.diff("kind", sample.symbol, "a method here, a property in the SDK")
                        continue
                for d in decls:
                    self.runtime_only.append("member %s" % d.symbol if owner else "global %s" % d.symbol)
                continue
            self.compare_overloads(decls, refs)
        # What the reference has on compared types that ModelRuntime lacks (information only).
        for key, refs in sorted(self.ref.members.items()):
            owner, group, signature, type_member = key
            if owner in compared_types and key not in self.rt.members and group != "type":
                if (owner, group, signature, not type_member) in self.rt.members:
                    continue
                mine = all_conformances(self.rt, owner)
                # Provided by a protocol extension of ModelRuntime, or synthesized by the compiler.
                if any((p, group, signature, type_member) in self.rt.members for p in mine):
                    continue
                if signature in ("hash(into:)", "hashValue", "==(a:b:)") and "Hashable" in mine:
                    continue
                if signature == "rawValue" and "RawRepresentable" in mine:
                    continue
                self.not_provided.append(refs[0].symbol)

    def compare_type(self, path: str, d: Decl, ref: Decl):
        if d.kind != ref.kind:
            self.diff("kind", path, "%s here, %s in the SDK" % (d.kind, ref.kind))
        if d.kind == "typealias" or ref.kind == "typealias":
            if d.kind == ref.kind and d.result != ref.result:
                self.diff("type", path, "alias of %s here, of %s in the SDK" % (d.result, ref.result))
            return
        if d.kind == "class" and ref.kind == "class":
            a, b = member_access(d), member_access(ref)
            if a != b:
                self.diff("access", path, "%s here, %s in the SDK" % (a, b))
        if d.generics != ref.generics or d.where != ref.where:
            self.diff("generics", path, "%s%s here, %s%s in the SDK" % (
                d.generics or "no generic parameters", " where " + d.where if d.where else "",
                ref.generics or "no generic parameters", " where " + ref.where if ref.where else ""))
        if "@MainActor" in d.attributes and "@MainActor" not in ref.attributes:
            self.diff("isolation", path, "@MainActor here, not in the SDK")
        elif "@MainActor" in ref.attributes and "@MainActor" not in d.attributes:
            self.diff("isolation", path, "not @MainActor here, @MainActor in the SDK")
        mine = all_conformances(self.rt, path)
        theirs = all_conformances(self.ref, path)
        # A type isolated to a global actor is Sendable.
        if "@MainActor" in d.attributes:
            mine.add("Sendable")
        if "@MainActor" in ref.attributes:
            theirs.add("Sendable")
        if d.kind == "class" and ref.kind == "class" and self.descends_from_nsobject(path):
            # What every NSObject subclass has through NSObject (the printer does not repeat it).
            for implied in ("Equatable", "Hashable", "CVarArg", "CustomStringConvertible", "CustomDebugStringConvertible",
                            "NSObjectProtocol"):
                mine.discard(implied)
                theirs.discard(implied)
        if d.kind == "class" and ref.kind == "class":
            sup_a = d.inherits[0] if d.inherits and self.is_class(d.inherits[0]) else "none"
            sup_b = ref.inherits[0] if ref.inherits and self.is_class(ref.inherits[0]) else "none"
            if sup_a != sup_b:
                self.diff("superclass", path, "%s here, %s in the SDK" % (sup_a, sup_b))
            mine.discard(sup_a)
            theirs.discard(sup_b)
        if d.kind == "enum" and ref.kind == "enum":
            raw_a = next((x for x in d.inherits if x in ("Int", "UInt", "String", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Int8")), "")
            raw_b = next((x for x in ref.inherits if x in ("Int", "UInt", "String", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Int8")), "")
            if raw_a != raw_b:
                self.diff("type", path, "raw type %s here, %s in the SDK" % (raw_a or "none", raw_b or "none"))
            mine.discard(raw_a)
            theirs.discard(raw_b)
        mine = {c for c in mine if not self.is_class(c)}
        theirs = {c for c in theirs if not self.is_class(c)}
        # A difference the superclass already has is reported there only.
        inherited_extra, inherited_missing = set(), set()
        if d.kind == "class" and d.inherits and ref.kind == "class" and ref.inherits:
            sup = d.inherits[0].split("<")[0]
            if sup == ref.inherits[0].split("<")[0] and sup in self.rt.types and sup in self.ref.types:
                sup_mine, sup_theirs = all_conformances(self.rt, sup), all_conformances(self.ref, sup)
                inherited_extra, inherited_missing = sup_mine - sup_theirs, sup_theirs - sup_mine
        mine -= inherited_extra
        theirs -= inherited_missing
        for c in sorted(mine - theirs):
            if c in self.runtime_protocols:
                self.runtime_only.append("conformance %s: %s" % (path, c))
            elif c == "Sendable":
                self.diff("sendable", path, "Sendable here, not in the SDK")
            else:
                self.diff("conformance", path, "conforms to %s here, not in the SDK" % c)
        for c in sorted(theirs - mine):
            if c == "Sendable":
                self.diff("sendable", path, "not Sendable here, Sendable in the SDK")
            else:
                self.diff("conformance", path, "does not conform to %s here, does in the SDK" % c)

    def ancestors(self, path: str) -> list:
        """The reference's superclasses and protocols of `path`, nearest first."""
        out, queue, seen = [], [path], {path}
        while queue:
            current = queue.pop(0)
            entries = sorted(all_conformances(self.ref, current))
            d = self.ref.types.get(current)
            if d is not None and d.kind == "class" and d.inherits:
                entries = [d.inherits[0].split("<")[0]] + entries
            if d is not None and d.kind == "protocol":
                entries = entries + [x for x in d.inherits]
            for e in entries:
                e = e.split("<")[0]
                if e not in seen and e in self.ref.types:
                    seen.add(e)
                    out.append(e)
                    queue.append(e)
        return out

    def inherited(self, owner: str, group: str, signature: str, type_member: bool):
        """The declaration a member of `owner` overrides or implements: a superclass's member or a
        protocol requirement of the reference."""
        if not owner:
            return None
        for ancestor in self.ancestors(owner):
            found = self.ref.members.get((ancestor, group, signature, type_member))
            if found:
                return found
        return None

    def from_overlay(self, r: Decl) -> bool:
        """Whether the SDK declares `r` in Swift (its overlay) rather than in Objective-C."""
        return self.overlay is None or r.key in self.overlay.members

    def resolve_alias(self, t: str, owner: str) -> str:
        """`t` with a type alias of the reference expanded: a global one, or `Owner<…>.Alias`."""
        if t.rstrip("?!") in self.ref.typealiases:
            suffix = t[len(t.rstrip("?!")):]
            return self.ref.typealiases[t.rstrip("?!")] + suffix if not suffix else "(" + self.ref.typealiases[t.rstrip("?!")] + ")" + suffix
        m = re.match(r"^([A-Za-z_.]+?)(<[^>]*>)?\.([A-Za-z_]+)$", t)
        if m and m.group(1) + "." + m.group(3) in self.ref.typealiases:
            return self.ref.typealiases[m.group(1) + "." + m.group(3)]
        return t

    def same_type(self, a: str, b: str, owner: str) -> bool:
        return a == b or a == self.resolve_alias(b, owner) or self.resolve_alias(a, owner) == self.resolve_alias(b, owner)

    def descends_from_nsobject(self, path: str) -> bool:
        return "NSObject" in self.ancestors(path)

    def is_class(self, name: str) -> bool:
        base = name.split("<")[0]
        k = self.ref.kind_of(base) or self.rt.kind_of(base)
        return k == "class" or base in ("NSObject",)

    def compare_overloads(self, decls: list, refs: list):
        if len(decls) == 1 and len(refs) == 1:
            self.compare_member(decls[0], refs[0])
            return
        unmatched_refs = list(refs)
        unmatched = []
        for d in decls:
            same = [r for r in unmatched_refs if r.full_signature == d.full_signature and r.generics == d.generics]
            if same:
                self.compare_member(d, same[0])
                unmatched_refs.remove(same[0])
            else:
                unmatched.append(d)
        if len(unmatched) == 1 and len(unmatched_refs) == 1:
            self.compare_member(unmatched[0], unmatched_refs[0])
            return
        # Then by parameter types alone (the result or the effects differ).
        for d in list(unmatched):
            same = [r for r in unmatched_refs if [p.type for p in r.params] == [p.type for p in d.params]]
            if len(same) == 1:
                self.compare_member(d, same[0])
                unmatched_refs.remove(same[0])
                unmatched.remove(d)
        for d in unmatched:
            self.diff("overload", d.symbol, "%s%s here matches none of the SDK's overloads" % (
                d.generics, d.full_signature))

    def compare_member(self, d: Decl, r: Decl):
        sym = d.symbol
        if d.kind != r.kind and not (d.kind in ("var",) and r.kind in ("var",)):
            self.diff("kind", sym, "%s here, %s in the SDK" % (d.kind, r.kind))
            return
        if d.kind == "case":
            if d.raw_value and r.raw_value and d.raw_value != r.raw_value:
                self.diff("value", sym, "raw value %s here, %s in the SDK" % (d.raw_value, r.raw_value))
            self.compare_params(d, r, sym)
            return
        # open or public: only meaningful for members of classes, and not for the implementation of
        # a protocol requirement (an Objective-C protocol's requirement is overridable there).
        if r.owner_kind == "protocol":
            pass
        elif d.owner_kind == "class" or d.owner_kind == "extension" and self.ref.kind_of(d.owner) == "class":
            if d.kind in ("func", "var", "subscript") or (d.kind == "init" and False):
                a = "open" if d.access == "open" and "final" not in d.modifiers else ("final" if "final" in d.modifiers else "public")
                b = "open" if r.access == "open" and "final" not in r.modifiers else ("final" if "final" in r.modifiers else "public")
                if a != b:
                    self.diff("access", sym, "%s here, %s in the SDK" % (a, b))
        if d.type_member and r.type_member:
            a = "static" if "static" in d.modifiers else "class"
            b = "static" if "static" in r.modifiers else "class"
            if a != b and d.owner_kind in ("class", "extension") and self.ref.kind_of(d.owner) == "class":
                self.diff("static", sym, "%s here, %s in the SDK" % (a, b))
        if d.kind == "init":
            a, b = init_kind(d), init_kind(r)
            if a != b:
                self.diff("init-kind", sym, "%s here, %s in the SDK" % (a, b))
            if d.failable != r.failable:
                self.diff("optionality", sym, "init%s here, init%s in the SDK" % (d.failable, r.failable))
        self.compare_params(d, r, sym)
        if d.kind in ("func", "var", "subscript") and not self.same_type(d.result, r.result, d.owner):
            cat = "optionality" if optionality_only(d.result, r.result) else "type"
            what = "type" if d.kind == "var" else "result"
            self.diff(cat, sym, "%s %s here, %s in the SDK" % (what, d.result, r.result))
        if d.effects != r.effects:
            self.diff("effects", sym, "%s here, %s in the SDK" % (d.effects or "no effects", r.effects or "no effects"))
        if d.kind in ("var", "subscript") and d.settable != r.settable:
            self.diff("settable", sym, "%s here, %s in the SDK" % (
                "settable" if d.settable else "read-only", "settable" if r.settable else "read-only"))
        if d.generics != r.generics or d.where != r.where:
            self.diff("generics", sym, "%s%s here, %s%s in the SDK" % (
                d.generics or "no generic parameters", " where " + d.where if d.where else "",
                r.generics or "no generic parameters", " where " + r.where if r.where else ""))
        if ("@MainActor" in d.attributes) != ("@MainActor" in r.attributes):
            self.diff("isolation", sym, "%s here, %s in the SDK" % (
                "@MainActor" if "@MainActor" in d.attributes else "not @MainActor",
                "@MainActor" if "@MainActor" in r.attributes else "not @MainActor"))
        # Swift treats what it imports from Objective-C as @discardableResult; only a declaration
        # of the Swift overlay says so itself.
        ref_discardable = "@discardableResult" in r.attributes or (r.module == "CoreData" and not self.from_overlay(r))
        if (d.kind == "func" and d.result not in ("Void", "()") and r.module == "CoreData"
                and ("@discardableResult" in d.attributes) != ref_discardable):
            self.diff("attribute", sym, "%s here, %s in the SDK" % (
                "@discardableResult" if "@discardableResult" in d.attributes else "no @discardableResult",
                "@discardableResult" if ref_discardable else "no @discardableResult"))
        if ("optional" in d.modifiers) != ("optional" in r.modifiers):
            self.diff("requirement", sym, "%s here, %s in the SDK" % (
                "optional" if "optional" in d.modifiers else "a required requirement",
                "optional" if "optional" in r.modifiers else "a required requirement"))
        if d.kind == "func" and ("mutating" in d.modifiers) != ("mutating" in r.modifiers):
            self.diff("kind", sym, "%s here, %s in the SDK" % (
                "mutating" if "mutating" in d.modifiers else "non-mutating",
                "mutating" if "mutating" in r.modifiers else "non-mutating"))

    def compare_params(self, d: Decl, r: Decl, sym: str):
        for index, (a, b) in enumerate(zip(d.params, r.params), 1):
            if not self.same_type(a.type, b.type, d.owner):
                cat = "optionality" if optionality_only(a.type, b.type) else "type"
                self.diff(cat, sym, "parameter %d: %s here, %s in the SDK" % (index, a.type, b.type))
            if a.has_default != b.has_default:
                self.diff("default", sym, "parameter %d %s here, %s in the SDK" % (
                    index, "has a default" if a.has_default else "has no default",
                    "has one" if b.has_default else "has none"))


# MARK: error codes


def header_error_codes(path: str) -> dict:
    codes = {}
    with open(path, encoding="utf-8") as f:
        for m in re.finditer(r"\b(NS[A-Za-z]+Error(?:Minimum|Maximum)?)\s*=\s*(\d+)", f.read()):
            codes[m.group(1)] = int(m.group(2))
    return codes


def runtime_error_codes(folder: str) -> dict:
    codes = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if not name.endswith(".swift"):
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                for m in re.finditer(r"public let (NS[A-Za-z]+Error(?:Minimum|Maximum)?)\s*(?::\s*Int\s*)?=\s*(\d+)", f.read()):
                    codes[m.group(1)] = int(m.group(2))
    return codes


# MARK: known differences


def read_known(path: str):
    known, problems = {}, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.rstrip("\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in text.split(" | ")]
            if len(parts) < 4 or not parts[3]:
                problems.append("%s:%d: a known difference needs `category | symbol | detail | reason`" % (path, number))
                continue
            known[" | ".join(parts[:3])] = (parts[3], number)
    return known, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--reference", action="append", required=True)
    parser.add_argument("--overlay", help="the SDK's Swift overlay interface of Core Data (what it declares in Swift)")
    parser.add_argument("--errors-header")
    parser.add_argument("--runtime-sources")
    parser.add_argument("--known", required=True)
    parser.add_argument("--report-dir")
    parser.add_argument("--runtime-only", help="the checked-in list of ModelRuntime-only declarations; a change fails the check")
    parser.add_argument("--update", action="store_true", help="rewrite the --runtime-only list instead of comparing it")
    args = parser.parse_args()

    runtime, reference = Interface(), Interface()
    parse_interface(args.runtime, runtime)
    for path in args.reference:
        parse_interface(path, reference)
    runtime_protocols = {p for p, d in runtime.types.items() if d.kind == "protocol" and p not in reference.types}
    overlay = None
    if args.overlay:
        overlay = Interface()
        parse_interface(args.overlay, overlay, overlay=True)
    comparison = Comparison(runtime, reference, runtime_protocols, overlay)
    comparison.run()
    if args.errors_header and args.runtime_sources:
        theirs = header_error_codes(args.errors_header)
        mine = runtime_error_codes(args.runtime_sources)
        for name in sorted(mine):
            if name in theirs and mine[name] != theirs[name]:
                comparison.diff("value", name, "%d here, %d in the SDK" % (mine[name], theirs[name]))
        for name in sorted(set(theirs) - set(mine)):
            comparison.not_provided.append(name)

    # What UIKit declares (the SDK's UIKit overlay is not read): noted, not compared.
    uikit = re.compile(r"^(type|member|conformance) (NSDiffableDataSourceSnapshot\b|IndexPath\.(row|section|item|init\((row|item):section:\)))")
    comparison.runtime_only = [e + " (UIKit's on Apple platforms; not compared)" if uikit.match(e) else e for e in comparison.runtime_only]
    # Key-value observing's protocol: Foundation's Swift overlay declares it (and conforms NSObject
    # to it), but the printed reference leaves out underscored names, so it is not compared.
    kvo = re.compile(r"^(type _KeyValueCodingAndObserving \(protocol\)|conformance \w+: _KeyValueCodingAndObserving)$")
    comparison.runtime_only = [
        e + " (in Foundation's Swift overlay, which conforms NSObject; not compared)" if kvo.match(e) else e
        for e in comparison.runtime_only]
    differences = sorted(set(comparison.differences))
    known, problems = read_known(args.known)
    matched_by: dict[str, int] = {k: 0 for k in known}
    unexpected = []
    for d in differences:
        hits = [k for k in known if k == d or ("*" in k and fnmatch.fnmatchcase(d, k))]
        if not hits:
            unexpected.append(d)
        for k in hits:
            matched_by[k] += 1
    stale = [k for k, n in matched_by.items() if n == 0]

    if args.report_dir:
        os.makedirs(args.report_dir, exist_ok=True)
        with open(os.path.join(args.report_dir, "differences.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(differences) + "\n")
        with open(os.path.join(args.report_dir, "runtime-only.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(set(comparison.runtime_only))) + "\n")
        with open(os.path.join(args.report_dir, "not-provided.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(set(comparison.not_provided))) + "\n")

    by_category: dict[str, int] = {}
    for d in differences:
        by_category[d.split(" | ")[0]] = by_category.get(d.split(" | ")[0], 0) + 1
    print("api-shape: %d declarations of ModelRuntime compared with %d of the reference" % (
        len(runtime.decls), len(reference.decls)))
    print("api-shape: %d differences (%s), %d known" % (
        len(differences), ", ".join("%s %d" % kv for kv in sorted(by_category.items())) or "none", len(known)))
    print("api-shape: %d ModelRuntime-only declarations (not differences; see runtime-only.txt)" % len(
        set(comparison.runtime_only)))
    print("api-shape: %d reference members of compared types not provided (see not-provided.txt)" % len(
        set(comparison.not_provided)))
    for p in problems:
        print("error: " + p)
    for d in unexpected:
        print("error: difference not in the known list: " + d)
    for k in stale:
        print("error: known difference no longer found (remove it from the list): " + k)
    runtime_only_changed = 0
    if args.runtime_only:
        header = ("# ModelRuntime's public declarations that Core Data (and Foundation, ObjectiveC) do not have:\n"
                  "# not differences, listed for review. Regenerate with Scripts/api-shape/check.sh --update.\n")
        current = header + "\n".join(sorted(set(comparison.runtime_only))) + "\n"
        if args.update:
            with open(args.runtime_only, "w", encoding="utf-8") as f:
                f.write(current)
        else:
            try:
                with open(args.runtime_only, encoding="utf-8") as f:
                    recorded = f.read()
            except FileNotFoundError:
                recorded = ""
            if recorded != current:
                old = set(recorded.splitlines()) - set(current.splitlines())
                new = set(current.splitlines()) - set(recorded.splitlines())
                for line in sorted(new):
                    print("error: ModelRuntime-only declaration not in %s: %s" % (os.path.basename(args.runtime_only), line))
                for line in sorted(old):
                    print("error: listed ModelRuntime-only declaration no longer found: %s" % line)
                print("api-shape: review them, then run check.sh --update")
                runtime_only_changed = 1
    failures = len(unexpected) + len(stale) + len(problems) + runtime_only_changed
    print("api-shape: failed checks: %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
