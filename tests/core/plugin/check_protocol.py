"""Runs a provider plugin through every method of protocol 1 and checks each request and each
line of its answers against schema/provider-protocol.schema.json (tests/core/plugin/plugin_test.cc).

usage: check_protocol.py SCHEMA PLUGIN ROOT OPTIONS_JSON  (the options as extdeps sends them)
"""
import json
import subprocess
import sys

import jsonschema

schema_path, plugin, root, options_json = sys.argv[1:5]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)


def ask(method, params):
    request = {"protocol": 1, "method": method, "params": params}
    validator.validate(request)
    run = subprocess.run([plugin], input=json.dumps(request) + "\n", capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    for line in lines:
        validator.validate(line)
        if line["type"] == "error":
            sys.exit(f"{method}: the plugin failed: {line['message']}")
    return lines


describe = ask("describe", {})
assert [m["type"] for m in describe] == ["describe"], describe
options = json.loads(options_json)
ask("identity", {"options": options, "root": root})
records = ask("load", {"options": options, "root": root, "names": ["acme-sdk"]})
assert records[-1]["type"] == "end" and records[-1]["records"] == len(records) - 1, records[-1]
commands = ask("install_commands", {"options": options, "packages": [{"name": "acme-sdk", "version": "4.2.1",
                                                                    "arch": "", "build": ""}]})
assert commands[0]["type"] == "commands"
ask("env", {"options": options, "root": root, "package": {"name": "acme-sdk", "version": "4.2.1", "where": "",
                                                          "need": "dep:generic/acme-sdk", "category": "host"}})
print(f"ok: {len(records) - 1} records, every message valid")
