// Bastion's permission gate for pi: every tool call is decided by Bastion before it runs.
// Written by `bastion install pi`; `bastion uninstall pi` removes it. Do not edit: re-run the install.
//
// Each `tool_call` runs Bastion's hook (below) with pi's event on stdin; the hook answers
// through the Bastion daemon on its socket (starting one when none runs) or decides in its own
// process. The call goes ahead only on exit 0 with {"decision": "allow"}, or exit 3 with
// {"decision": "ask"} that a person confirms in pi's own dialog. Anything else blocks it: a
// deny, a hook that crashes, hangs or cannot start, an answer that is not what the protocol
// says, an error in this file. An allowed `bash` command comes back rewritten to run in
// Bastion's sandbox; once decided, the call's input is frozen so no later extension changes
// what was decided (a change throws, and pi blocks a call whose tool_call handler throws).
import { spawn } from "node:child_process";

const HOOK: string[] = __BASTION_HOOK__;
const TIMEOUT_MS: number = __BASTION_TIMEOUT_MS__;

type Json = Record<string, unknown>;
type Answer = { decision: string; reason: string; input?: Record<string, string> };
type Ran = { code: number | null; stdout: string; stderr: string; failure?: string };
type Block = { block: true; reason: string };

function runHook(payload: string, signal?: AbortSignal): Promise<Ran> {
  return new Promise((resolve) => {
    let settled = false;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const child = spawn(HOOK[0], HOOK.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    const finish = (ran: Ran) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ran);
    };
    const stop = (failure: string) => {
      child.kill("SIGKILL");
      finish({ code: null, stdout: "", stderr: "", failure });
    };
    const timer = setTimeout(() => stop(`Bastion gave no answer within ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
    if (signal?.aborted) stop("the call was aborted before Bastion answered");
    signal?.addEventListener("abort", () => stop("the call was aborted before Bastion answered"));
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: Error) => finish({ code: null, stdout: "", stderr: "", failure: error.message }));
    child.on("close", (code: number | null, killed: string | null) =>
      finish({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        failure: killed ? `the Bastion hook was killed by ${killed}` : undefined,
      }),
    );
    child.stdin.on("error", () => undefined); // a hook that stops reading: its exit status decides
    child.stdin.end(payload);
  });
}

function readAnswer(stdout: string): Answer | null {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return null;
  const { decision, reason, input } = data as Json;
  if (typeof decision !== "string" || typeof reason !== "string") return null;
  if (input === undefined) return { decision, reason };
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const fields = Object.entries(input as Json);
  if (fields.length === 0 || fields.some(([, value]) => typeof value !== "string")) return null;
  return { decision, reason, input: input as Record<string, string> };
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value as Json)) deepFreeze(inner);
}

function proceed(input: Json, answer: Answer): undefined {
  if (answer.input) Object.assign(input, answer.input);
  deepFreeze(input);
  return undefined;
}

function block(reason: string): Block {
  return { block: true, reason: reason.startsWith("Bastion") ? reason : `Bastion: ${reason}` };
}

async function gate(event: any, ctx: any): Promise<Block | undefined> {
  const hasUI = ctx.hasUI === true;
  const payload = JSON.stringify({
    toolName: event.toolName,
    toolCallId: event.toolCallId,
    input: event.input,
    cwd: ctx.cwd,
    sessionId: ctx.sessionManager?.getSessionId?.(),
    hasUI,
  });
  const ran = await runHook(payload, ctx.signal);
  const answer = ran.failure ? null : readAnswer(ran.stdout);
  if (ran.code === 0 && answer?.decision === "allow") return proceed(event.input, answer);
  if (ran.code === 3 && answer?.decision === "ask") {
    if (!hasUI) return block(`${answer.reason} (pi has no dialog here to ask a person)`);
    const shown = answer.input?.command ?? JSON.stringify(event.input);
    const yes = await ctx.ui.confirm(`Bastion: allow ${event.toolName}?`, `${shown}\n\n${answer.reason}`);
    if (yes !== true) return block(`${answer.reason} (not confirmed)`);
    return proceed(event.input, answer);
  }
  if (answer && answer.decision === "deny" && ran.code === 2) return block(answer.reason);
  const why = ran.failure ?? (ran.stderr.trim() || `an answer Bastion's protocol does not allow (exit ${ran.code})`);
  return block(`could not decide, so the call is blocked: ${why}`);
}

export default function bastion(pi: any): void {
  // `/bastion` says the gate is loaded; `bastion doctor` looks for this command to prove pi loads this file.
  pi.registerCommand("bastion", {
    description: "Bastion decides every tool call (bastion install pi)",
    handler: async (_args: string, ctx: any) => ctx.ui.notify(`Bastion decides every tool call: ${HOOK.join(" ")}`, "info"),
  });
  pi.on("tool_call", async (event: any, ctx: any) => {
    try {
      return await gate(event, ctx);
    } catch (error) {
      return block(`the permission gate failed, so the call is blocked: ${String(error)}`);
    }
  });
}
