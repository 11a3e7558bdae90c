#!/usr/bin/env python3
"""summary-schema.py SCHEMA JSON...: check each summary.json against results/summary.schema.json.

The JSON Schema (draft 2020-12) keywords the schema uses, checked here without a third-party
module: type, const, enum, required, properties, additionalProperties (false or a schema),
minProperties, items, minItems, minimum, minLength, pattern, anyOf, $ref (to "#/$defs/...").
Also tcprobe's own `x-unique-keys`: in an array, no two items share the value of each listed
key ("a+b" joins several keys).  Any other keyword in the schema is an error, so the schema
cannot say more than this checks.  When the `jsonschema` module is installed the file is
checked by it too.  Prints one line per problem; exit 0 all valid, 1 invalid, 2 bad usage.
"""
import json
import re
import sys

KNOWN = {"$schema", "title", "description", "type", "const", "enum", "required", "properties",
         "additionalProperties", "minProperties", "items", "minItems", "minimum", "minLength",
         "pattern", "anyOf", "$ref", "$defs", "x-unique-keys"}


def is_type(v, t):
    if t == "null":
        return v is None
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool) or (isinstance(v, float) and v.is_integer())
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "string":
        return isinstance(v, str)
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    raise ValueError("unknown type %r" % t)


def check(v, s, root, path, errs):
    for k in s:
        if k not in KNOWN:
            errs.append("%s: schema keyword %r is not checked by summary-schema.py" % (path, k))
    if "$ref" in s:
        ref = s["$ref"]
        if not ref.startswith("#/$defs/"):
            errs.append("%s: $ref %s: only #/$defs/ references" % (path, ref))
            return
        check(v, root["$defs"][ref[len("#/$defs/"):]], root, path, errs)
    if "anyOf" in s:
        if not any(not sub_errs(v, alt, root, path) for alt in s["anyOf"]):
            errs.append("%s: %s matches none of anyOf" % (path, json.dumps(v)[:80]))
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            errs.append("%s: %s is not %s" % (path, json.dumps(v)[:80], "/".join(ts)))
            return
    if "const" in s and v != s["const"]:
        errs.append("%s: %r, expected %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if isinstance(v, (int, float)) and not isinstance(v, bool) and "minimum" in s and v < s["minimum"]:
        errs.append("%s: %r < minimum %r" % (path, v, s["minimum"]))
    if isinstance(v, str):
        if "minLength" in s and len(v) < s["minLength"]:
            errs.append("%s: %r shorter than %d" % (path, v, s["minLength"]))
        if "pattern" in s and not re.search(s["pattern"], v):
            errs.append("%s: %r does not match %s" % (path, v, s["pattern"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: key %r missing" % (path, k))
        if "minProperties" in s and len(v) < s["minProperties"]:
            errs.append("%s: fewer than %d keys" % (path, s["minProperties"]))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                check(x, props[k], root, path + "." + k, errs)
            elif s.get("additionalProperties") is False:
                errs.append("%s: key %r not in the schema" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                check(x, s["additionalProperties"], root, path + "." + k, errs)
    if isinstance(v, list):
        if "minItems" in s and len(v) < s["minItems"]:
            errs.append("%s: fewer than %d items" % (path, s["minItems"]))
        if "items" in s:
            for i, x in enumerate(v):
                check(x, s["items"], root, "%s[%d]" % (path, i), errs)
        for key in s.get("x-unique-keys", []):
            seen = {}
            for i, x in enumerate(v):
                val = tuple(json.dumps(x.get(k)) for k in key.split("+")) if isinstance(x, dict) else None
                if val in seen:
                    errs.append("%s[%d]: %s %s also in item %d (x-unique-keys)" % (path, i, key, "/".join(val), seen[val]))
                seen.setdefault(val, i)


def sub_errs(v, s, root, path):
    e = []
    check(v, s, root, path, e)
    return e


def main(argv):
    if len(argv) < 3:
        print("usage: summary-schema.py SCHEMA JSON...", file=sys.stderr)
        return 2
    schema = json.load(open(argv[1]))
    bad = 0
    for f in argv[2:]:
        try:
            doc = json.load(open(f))
        except (OSError, ValueError) as e:
            print("%s: %s" % (f, e))
            bad += 1
            continue
        errs = []
        check(doc, schema, schema, "$", errs)
        try:
            import jsonschema
            v = jsonschema.Draft202012Validator(schema)
            errs += ["%s (jsonschema)" % e.message for e in v.iter_errors(doc)]
        except ImportError:
            pass
        for e in errs:
            print("%s: %s" % (f, e))
        bad += bool(errs)
        if not errs:
            print("%s: valid (summary_version %s)" % (f, doc.get("summary_version")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
