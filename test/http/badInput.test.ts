import assert from "node:assert/strict";
import http from "node:http";
import zlib from "node:zlib";
import { requestTargetProblem } from "../../src/http/requestTarget.js";
import { captureLogs, LEVEL, type LogLine } from "../helpers/logCapture.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** Bad input is a 4xx with the documented body, never a 500, and never an error-level log line. */

function assertDocumented(status: number, body: any, expected: { status: number; code?: string }, what: string) {
  assert.equal(status, expected.status, `${what}: ${JSON.stringify(body)}`);
  assert.equal(body.success, false, what);
  assert.equal(typeof body.error?.message, "string", what);
  if (expected.code) assert.equal(body.error.code, expected.code, what);
  assert.deepEqual(Object.keys(body).sort(), ["error", "success"], what);
}

/** A POST of `size` bytes over real HTTP (node:http), written in 64 KiB pieces; the answer the client read. */
function upload(port: number, path: string, size: number, options: { chunked?: boolean } = {}) {
  return new Promise<{ status: number; body: any; written: number }>((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (!options.chunked) headers["content-length"] = size;
    let written = 0;
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), written }));
      res.on("error", reject);
    });
    req.on("error", reject);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (written < size) {
        const n = Math.min(piece.length, size - written);
        written += n;
        if (!req.write(piece.subarray(0, n))) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("bad input over HTTP", function () {
  this.timeout(60_000);
  let server: TestServer;
  let logs: ReturnType<typeof captureLogs>;
  let token: string;
  let mine: string;
  before(async () => {
    logs = captureLogs();
    server = await startTestServer({ logger: logs.logger });
    token = (await (await fetch(`${server.url}/api/auth/guest`, { method: "POST" })).json()).token;
    const made = await fetch(`${server.url}/api/character`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Inputs" }),
    });
    mine = (await made.json()).character.id;
  });
  after(async () => {
    await server?.close();
  });
  const authed = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
  const errorLines = (from: number) => logs.lines.slice(from).filter((l: LogLine) => l.level >= LEVEL.error);

  it("a path or query that does not decode, or decodes to NUL or an unpaired surrogate, is 400 BAD_REQUEST", async () => {
    const from = logs.lines.length;
    for (const path of [
      "/api/characters/%ZZ/skills",
      "/api/characters/%00/skills",
      "/api/characters/abc%00def/skills",
      "/api/characters/%ED%A0%80/skills", // an encoded lone surrogate (U+D800) is not UTF-8
      "/api/characters/%C0%AF/skills", // an overlong encoding
      "/api/player/friends?characterId=%00",
      "/api/player/friends?characterId=%ZZ",
      "/api/player/ignore?characterId=%ED%B0%80",
      "/api/player/trades?limit=1&%00=x",
      "/manifests/%E0%A4%A",
      "/%FF",
    ]) {
      const res = await fetch(`${server.url}${path}`, { headers: authed() });
      assertDocumented(res.status, await res.json(), { status: 400, code: "BAD_REQUEST" }, path);
    }
    // Well-formed targets still reach their routes.
    const ok = await fetch(`${server.url}/api/characters/${encodeURIComponent(mine)}/skills?x=%E2%82%AC+%F0%9F%98%80`, { headers: authed() });
    assert.equal(ok.status, 200);
    assert.deepEqual(errorLines(from), [], "nothing logged at error level");
  });

  it("NUL or unpaired surrogates in a JSON body (values or keys) are 400 INVALID_PAYLOAD naming the field", async () => {
    const from = logs.lines.length;
    const post = (path: string, raw: string) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: authed({ "content-type": "application/json" }), body: raw });
    for (const [path, raw, field] of [
      ["/api/player/ignore", '{"characterId":"\\u0000"}', "body.characterId"],
      ["/api/player/ignore", '{"characterId":"\\ud800"}', "body.characterId"],
      ["/api/player/ignore", '{"characterId":"x\\udc00y"}', "body.characterId"],
      ["/api/player/friends/request", '{"name":"Bob\\u0000"}', "body.name"],
      ["/api/character", '{"name":"Ok","templateId":"\\ud83d"}', "body.templateId"],
      ["/api/character", '{"name":"Ok","\\u0000":1}', "body"],
      ["/api/player/ignore", JSON.stringify({ characterId: [[[{ deep: "\u0000" }]]] }), "body.characterId.0.0.0.deep"],
    ]) {
      const res = await post(path, raw);
      const body = await res.json();
      assertDocumented(res.status, body, { status: 400, code: "INVALID_PAYLOAD" }, `${path} ${raw}`);
      assert.ok(body.error.message.startsWith(field), `${body.error.message} names ${field}`);
    }
    // A paired surrogate (an emoji) is text like any other: the route decides (here: not a player).
    const emoji = await post("/api/player/ignore", JSON.stringify({ name: "😀" }));
    assert.equal(emoji.status, 400);
    assert.doesNotMatch((await emoji.json()).error.message, /NUL|surrogate/);
    // Bodies nested beyond reason are refused before any route walks them.
    const deep = await post("/api/player/ignore", `${"[".repeat(5000)}${"]".repeat(5000)}`);
    assertDocumented(deep.status, await deep.json(), { status: 400, code: "INVALID_PAYLOAD" }, "5,000 deep");
    assert.deepEqual(errorLines(from), [], "nothing logged at error level");
  });

  it("a body that is not what its Content-Encoding says, or an unknown encoding, is 400; a real gzip body still works", async () => {
    const from = logs.lines.length;
    const send = (encoding: string, body: Buffer | string) =>
      fetch(`${server.url}/api/character`, {
        method: "POST",
        headers: authed({ "content-type": "application/json", "content-encoding": encoding }),
        body: typeof body === "string" ? body : new Uint8Array(body),
      });
    for (const [encoding, code] of [
      ["gzip", "BAD_ENCODING"],
      ["deflate", "BAD_ENCODING"],
      ["br", "BAD_ENCODING"],
      ["snappy", "UNSUPPORTED_ENCODING"],
      ["gzip, identity", "UNSUPPORTED_ENCODING"],
    ]) {
      const res = await send(encoding, '{"name":"Plain"}');
      assertDocumented(res.status, await res.json(), { status: 400, code }, encoding);
    }
    const truncated = zlib.gzipSync('{"name":"Halfway"}').subarray(0, 12);
    const cut = await send("gzip", truncated);
    assertDocumented(cut.status, await cut.json(), { status: 400 }, "truncated gzip");
    assert.equal((await send("gzip", zlib.gzipSync('{"name":"Zipped"}'))).status, 201);
    assert.deepEqual(errorLines(from), [], "nothing logged at error level");
  });

  it("client errors are logged below error level: the request line of a 4xx is warn", async () => {
    const from = logs.lines.length;
    assert.equal((await fetch(`${server.url}/api/no-such-thing`)).status, 404);
    assert.equal((await fetch(`${server.url}/api/character`)).status, 401);
    const requestLines = logs.lines.slice(from).filter((l) => l.msg === "request completed");
    assert.deepEqual(
      requestLines.map((l) => [(l.res as { statusCode: number }).statusCode, l.level]),
      [
        [404, LEVEL.warn],
        [401, LEVEL.warn],
      ],
    );
  });

  it("bodies over the limit are 413 PAYLOAD_TOO_LARGE, read to the end so the client sees the answer (1 MB, 10 MB, chunked)", async () => {
    const from = logs.lines.length;
    for (const [size, chunked] of [
      [1024 * 1024, false],
      [10 * 1024 * 1024, false],
      [1024 * 1024, true],
      [65 * 1024, false],
    ] as const) {
      const res = await upload(server.port, "/api/auth/guest", size, { chunked });
      assertDocumented(res.status, res.body, { status: 413, code: "PAYLOAD_TOO_LARGE" }, `${size} bytes${chunked ? " chunked" : ""}`);
      assert.equal(res.written, size);
    }
    // Any path, any route: the limit is the server's.
    const other = await upload(server.port, "/api/player/ignore", 2 * 1024 * 1024);
    assert.equal(other.status, 413);
    // A body within the limit is read as usual.
    const fine = await fetch(`${server.url}/api/player/ignore`, {
      method: "POST",
      headers: authed({ "content-type": "application/json" }),
      body: JSON.stringify({ name: "Nobody", pad: "x".repeat(60_000) }),
    });
    assert.equal(fine.status, 400);
    assert.equal((await fine.json()).error.code, "INVALID_PAYLOAD");
    assert.deepEqual(errorLines(from), [], "nothing logged at error level");
  });

  it("a body declared beyond the 10 MB discard cap gets the 413 without being read", async () => {
    const res = await new Promise<{ status?: number; error?: string }>((resolve) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: "/api/auth/guest",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": 1024 * 1024 * 1024 },
        },
        (r) => {
          r.resume();
          resolve({ status: r.statusCode });
        },
      );
      req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code }));
      // Send a little, as a client would before reading; the server answers at once.
      req.write(Buffer.alloc(1024, 0x20));
    });
    assert.equal(res.status, 413, JSON.stringify(res));
  });

  it("a 1 MB body on any method and route, of any type, is read before the answer: Node's fetch sees the 413, never a reset", async () => {
    const from = logs.lines.length;
    const text = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    const bytes = new TextEncoder().encode(text);
    // A streamed body is sent chunked, with no length declared.
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += 16 * 1024) c.enqueue(bytes.subarray(i, i + 16 * 1024));
          c.close();
        },
      });
    const cases: Array<[string, string, Record<string, string>, "length" | "chunked"]> = [];
    for (const [method, path] of [
      ["DELETE", `/api/character/${mine}`],
      ["DELETE", "/api/character/c_unknown"],
      ["DELETE", `/api/player/friends/${mine}`],
      ["PUT", "/api/player/friends/c_unknown"],
      ["DELETE", "/api/characters/%00/skills"],
      ["DELETE", "/nope"],
    ]) {
      for (const type of ["application/json", "text/plain", ""]) {
        for (const form of ["length", "chunked"] as const) {
          for (const auth of [true, false]) {
            const headers: Record<string, string> = auth ? authed() : {};
            if (type) headers["content-type"] = type;
            cases.push([method, path, headers, form]);
          }
        }
      }
    }
    for (const [method, path, headers, form] of cases) {
      const what = `${method} ${path} ${JSON.stringify(headers)} ${form}`;
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: form === "length" ? text : stream(),
        ...(form === "chunked" ? { duplex: "half" } : {}),
      } as RequestInit).catch((err: Error & { cause?: { code?: string } }) => {
        throw new Error(`${what}: ${err.cause?.code ?? err.message}`);
      });
      assertDocumented(res.status, await res.json(), { status: 413, code: "PAYLOAD_TOO_LARGE" }, what);
    }
    // Nothing ran: the character is still there.
    assert.ok(await server.ctx.db.prisma.character.findUnique({ where: { id: mine } }), "the character was not deleted");
    assert.deepEqual(errorLines(from), [], "nothing logged at error level");
  });

  it("a body within the limit of a type no route takes is read and ignored: the route answers as without a body", async () => {
    for (const form of ["length", "chunked"] as const) {
      const body = "name=Nobody";
      const res = await fetch(`${server.url}/api/player/ignore`, {
        method: "POST",
        headers: authed({ "content-type": "application/x-www-form-urlencoded" }),
        body: form === "length" ? body : new Blob([body]).stream(),
        ...(form === "chunked" ? { duplex: "half" } : {}),
      } as RequestInit);
      assertDocumented(res.status, await res.json(), { status: 400, code: "INVALID_PAYLOAD" }, form);
    }
  });
});

describe("requestTargetProblem", () => {
  it("passes well-formed targets and names the problem of bad ones", () => {
    for (const ok of [
      "/",
      "/api/characters/c_1/skills",
      "/a/%2F/b?x=1&y=%E2%82%AC&z=a+b&flag",
      "/%F0%9F%98%80?q=%F0%9F%98%80",
      "/matchmake/joinOrCreate/world",
      "/x?a=%25",
    ]) {
      assert.equal(requestTargetProblem(ok), undefined, ok);
    }
    for (const [bad, problem] of [
      ["/a/%ZZ", /path has malformed percent-encoding/],
      ["/a/%", /path has malformed/],
      ["/a/%00", /path contains a NUL/],
      ["/a?b=%00", /query contains a NUL/],
      ["/a?%00", /query contains a NUL/],
      ["/a?b=%ZZ", /query has malformed/],
      ["/a/%ED%A0%80", /path has malformed/],
      ["/a/\ud800", /unpaired UTF-16 surrogate/],
      ["/a?b=\udfff", /unpaired UTF-16 surrogate/],
    ] as const) {
      assert.match(requestTargetProblem(bad) ?? "", problem, bad);
    }
  });
});
