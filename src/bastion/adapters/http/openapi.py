"""The OpenAPI 3.1 document of ``/v1``, built from the same route table the app serves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bastion.adapters.http.auth import PERMISSIONS


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    permission: str | None  # None: no authentication
    summary: str
    body: str | None = None  # a schema name under components
    response: str = "Object"
    status: int = 200
    query: tuple[tuple[str, str, str], ...] = ()  # (name, type, description)


_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}
_REASON = {
    "type": "object",
    "properties": {k: {"type": "string"} for k in ("rule", "source", "matched", "message", "decision")},
}
_EVALUATION = {
    "type": "object",
    "required": ["decision", "reasons", "effects", "marker"],
    "properties": {
        "decision": {"enum": ["allow", "ask", "deny"]},
        "reasons": {"type": "array", "items": _REASON},
        "effects": {"type": "array", "items": {"type": "string"}},
        "marker": {"type": ["string", "null"]},
    },
}
SCHEMAS: dict[str, Any] = {
    "Error": _ERROR,
    "Evaluation": _EVALUATION,
    "ToolCall": {
        "type": "object",
        "required": ["tool"],
        "properties": {
            "tool": {"type": "string"},
            "args": {"type": "object"},
            "cwd": {"type": "string"},
            "session": {"type": "string"},
            "turn": {"type": "string"},
            "agent": {"type": "string"},
            "interactive": {"type": "boolean", "default": True},
        },
        "additionalProperties": False,
    },
    "Request": {
        "type": "object",
        "required": ["id", "state", "decision", "evaluation", "feedback", "created", "expires"],
        "properties": {
            "id": {"type": ["string", "null"]},
            "state": {"type": "string"},
            "decision": {"enum": ["allow", "ask", "deny"]},
            "evaluation": _EVALUATION,
            "feedback": {"type": ["string", "null"]},
            "created": {"type": "string"},
            "expires": {"type": ["string", "null"]},
        },
    },
    "Approve": {
        "type": "object",
        "properties": {
            "always": {"type": "boolean"},
            "pattern": {"type": "string"},
            "scope": {"enum": ["project", "session"]},
            # "approve uncontained": this one call runs as written, outside the sandbox.
            "uncontained": {"type": "boolean"},
        },
    },
    "Deny": {"type": "object", "properties": {"feedback": {"type": "string", "maxLength": 2000}}},
    "PolicyText": {
        "type": "object",
        "required": ["text"],
        "properties": {"text": {"type": "string"}, "path": {"type": "string"}},
    },
    "PolicyCheck": {
        "type": "object",
        "properties": {
            "ok": {"type": "boolean"},
            "error": {
                "type": ["object", "null"],
                "properties": {
                    "file": {"type": "string"},
                    "line": {"type": ["integer", "null"]},
                    "key": {"type": "string"},
                    "message": {"type": "string"},
                },
            },
        },
    },
    "SettingsChange": {
        "type": "object",
        "properties": {
            "mode": {"enum": ["read-only", "ask-before-edit", "workspace", "full-access"]},
            "workspace": {"type": "array", "items": {"type": "string"}},
            "trusted_roots": {
                "type": "array",
                "items": {
                    "oneOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "required": ["path"],
                            "properties": {"path": {"type": "string"}, "rw": {"type": "boolean"}},
                            "additionalProperties": False,
                        },
                    ]
                },
            },
            "revoke_grants": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": False,
    },
    "Object": {"type": "object"},
}
_ERRORS = {
    "400": "body is not strict JSON (syntax, duplicate keys, NaN, nesting > 64)",
    "401": "missing or wrong key",
    "403": "wrong role (or CSRF, or self-approval)",
    "404": "unknown id",
    "413": "body too large",
    "422": "invalid call or body",
    "429": "rate limited (see Retry-After)",
}


def document(operations: list[Operation]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        entry: dict[str, Any] = {
            "summary": op.summary,
            "responses": {
                str(op.status): {
                    "description": "OK",
                    "content": {
                        "application/json": {"schema": {"$ref": f"#/components/schemas/{op.response}"}}
                    },
                }
            },
        }
        if op.permission is not None:
            roles = sorted(r.value for r in PERMISSIONS[op.permission])
            entry["description"] = f"Roles: {', '.join(roles)}."
            entry["security"] = [{"apiKey": []}, {"bearer": []}]
            for status, text in _ERRORS.items():
                entry["responses"][status] = {
                    "description": text,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
        else:
            entry["security"] = []
        if op.body is not None:
            entry["requestBody"] = {
                "required": op.body in ("ToolCall", "PolicyText", "SettingsChange"),
                "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{op.body}"}}},
            }
        params = (
            [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
            if "{id}" in op.path
            else []
        )
        params += [
            {"name": n, "in": "query", "schema": {"type": t}, "description": d} for n, t, d in op.query
        ]
        if params:
            entry["parameters"] = params
        paths.setdefault(op.path, {})[op.method.lower()] = entry
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Bastion gateway",
            "version": "1",
            "description": "Decide, park and answer AI-agent tool calls.",
        },
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "bearer": {"type": "http", "scheme": "bearer"},
            },
        },
    }
