/** One REST call to a test server over real HTTP: the status and the parsed JSON body. */
export async function rest(
  base: { url: string },
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    // A string is sent as it is (to test bodies that are not valid JSON).
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
