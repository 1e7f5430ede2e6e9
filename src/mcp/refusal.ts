/** A refusal of an /mcp request outside any tool (no session yet, or none to serve it): the REST error body with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
