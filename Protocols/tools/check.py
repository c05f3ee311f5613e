#!/usr/bin/env python3
"""Checks Protocols/: every schema uses only the supported keywords, every vector's hex is
its payload with the right header, and every vector with a "schema" validates against it.
It also validates examples/*.manifest.json against manifest.json.

A reference for the validator the Swift tests carry: the same keyword subset, the same
$ref forms ("file.json", "file.json#/$defs/name", "#/$defs/name"), resolved by file name
inside schemas/. Run: python3 Protocols/tools/check.py
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "schemas")
KEYWORDS = {"$schema", "$id", "title", "description", "type", "properties", "required",
            "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "$ref", "$defs",
            "minimum", "maximum", "exclusiveMinimum", "minItems", "maxItems", "minLength"}
TYPES = {"null", "boolean", "object", "array", "number", "integer", "string"}

documents = {}


def load(name):
    if name not in documents:
        with open(os.path.join(SCHEMAS, name)) as handle:
            documents[name] = json.load(handle)
    return documents[name]


def lint(schema, where, problems):
    """Reports keywords outside the subset and malformed uses of the ones inside it."""
    if not isinstance(schema, dict):
        problems.append(f"{where}: a schema must be an object")
        return
    for key, value in schema.items():
        if key not in KEYWORDS:
            problems.append(f"{where}: keyword {key!r} is not in the supported subset")
        elif key == "type":
            names = value if isinstance(value, list) else [value]
            if not all(name in TYPES for name in names):
                problems.append(f"{where}.type: unknown type {value!r}")
        elif key == "additionalProperties" and not isinstance(value, bool):
            lint(value, f"{where}.additionalProperties", problems)
        elif key == "$ref":
            file, _, pointer = value.partition("#")
            if pointer and not pointer.startswith("/$defs/"):
                problems.append(f"{where}.$ref: unsupported form {value!r}")
            if file and not os.path.exists(os.path.join(SCHEMAS, file)):
                problems.append(f"{where}.$ref: no schema file {file!r}")
        elif key in ("properties", "$defs"):
            for name, sub in value.items():
                lint(sub, f"{where}.{key}.{name}", problems)
        elif key == "items":
            lint(value, f"{where}.items", problems)
        elif key in ("anyOf", "oneOf"):
            for index, sub in enumerate(value):
                lint(sub, f"{where}.{key}[{index}]", problems)


def resolve(reference, current):
    file, _, pointer = reference.partition("#")
    document = file or current
    schema = load(document)
    if pointer:
        schema = schema["$defs"][pointer[len("/$defs/"):]]
    return schema, document


def type_of(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    return "number"


def is_type(value, name):
    actual = type_of(value)
    if name == "integer":
        return actual == "number" and float(value).is_integer()
    return actual == name


def equal(a, b):
    if type_of(a) != type_of(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    return a == b


def validate(value, schema, document, path="$"):
    """Returns the list of errors (empty when `value` is valid)."""
    errors = []
    if "$ref" in schema:
        target, target_document = resolve(schema["$ref"], document)
        errors += validate(value, target, target_document, path)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(is_type(value, name) for name in names):
            return errors + [f"{path}: expected {schema['type']}, found {type_of(value)}"]
    if "const" in schema and not equal(value, schema["const"]):
        errors.append(f"{path}: must be {json.dumps(schema['const'])}")
    if "enum" in schema and not any(equal(value, option) for option in schema["enum"]):
        errors.append(f"{path}: must be one of {json.dumps(schema['enum'])}")
    if isinstance(value, str) and "minLength" in schema and len(value) < schema["minLength"]:
        errors.append(f"{path}: shorter than {schema['minLength']}")
    if type_of(value) == "number":
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: less than {schema['minimum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            errors.append(f"{path}: not above {schema['exclusiveMinimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: more than {schema['maximum']}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if "items" in schema:
            for index, item in enumerate(value):
                errors += validate(item, schema["items"], document, f"{path}[{index}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing {name!r}")
        for name, member in value.items():
            if name in properties:
                errors += validate(member, properties[name], document, f"{path}.{name}")
            elif schema.get("additionalProperties", True) is False:
                errors.append(f"{path}: unexpected member {name!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += validate(member, schema["additionalProperties"], document, f"{path}.{name}")
    if "anyOf" in schema:
        if not any(not validate(value, sub, document, path) for sub in schema["anyOf"]):
            errors.append(f"{path}: matches none of anyOf")
    if "oneOf" in schema:
        matches = sum(1 for sub in schema["oneOf"] if not validate(value, sub, document, path))
        if matches != 1:
            errors.append(f"{path}: matches {matches} of oneOf (exactly 1 needed)")
    return errors


def main():
    problems = []
    for name in sorted(os.listdir(SCHEMAS)):
        if name.endswith(".json"):
            schema = load(name)
            if schema.get("$id") != name:
                problems.append(f"{name}: $id must be the file name")
            lint(schema, name, problems)

    with open(os.path.join(ROOT, "vectors", "frames.json")) as handle:
        vectors = json.load(handle)["vectors"]
    names = set()
    for vector in vectors:
        name = vector["name"]
        where = f"vector {name!r}"
        if name in names:
            problems.append(f"{where}: duplicate name")
        names.add(name)
        frame = bytes.fromhex(vector["hex"])
        expect = vector["expect"]
        if "framing" not in expect:
            length = int.from_bytes(frame[:4], "big")
            payload = frame[4:]
            if length != len(payload):
                problems.append(f"{where}: header says {length} bytes, payload has {len(payload)}")
            if "payload" in vector and vector["payload"].encode("utf-8") != payload:
                problems.append(f"{where}: payload text differs from the frame's bytes")
            if "json" in vector and not equal(json.loads(payload), vector["json"]):
                problems.append(f"{where}: json differs from the payload")
        if "schema" in vector:
            for error in validate(vector["json"], load(vector["schema"]), vector["schema"]):
                problems.append(f"{where}: {error}")

    examples = os.path.join(ROOT, "examples")
    for name in sorted(os.listdir(examples)) if os.path.isdir(examples) else []:
        if name.endswith(".manifest.json"):
            with open(os.path.join(examples, name)) as handle:
                for error in validate(json.load(handle), load("manifest.json"), "manifest.json"):
                    problems.append(f"examples/{name}: {error}")

    for problem in problems:
        print(problem)
    print(f"{len(vectors)} vectors, {len(documents)} schemas: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
