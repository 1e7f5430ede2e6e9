/**
 * Stack traces that name the server's TypeScript sources when it runs from its bundle
 * (src/launch.mjs): each frame in one of the bundle's files is mapped through that file's source
 * map, read the first time a stack shows one of its frames. Node's own source maps
 * (`--enable-source-maps`, process.setSourceMapsEnabled) read the map of every module that has one,
 * the packages' included, as each loads: ~50 ms of every start on this project's 2-core machine,
 * for stacks that are rarely formatted. This file is JavaScript: the launcher runs it before
 * anything can read TypeScript.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A file's path from a frame's file name (a path, or a file: URL for an ES module). */
function pathOf(fileName) {
  return fileName.startsWith("file:") ? fileURLToPath(fileName) : fileName;
}

/**
 * Map the frames of the files in `dir` (the bundle's folder) in every stack formatted from now on.
 * A frame whose map is missing, unreadable or has no entry for its position stays as it was.
 */
export function mapStackTraces(dir) {
  const inside = path.resolve(dir) + path.sep;
  /** Each bundle file's map (null: none to be had), by path. */
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let map = null;
      try {
        map = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))), url: pathToFileURL(`${file}.map`) };
      } catch {
        // no map: its frames stay as they are
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  /** One frame as V8 writes it, its position in the bundle replaced by the source's. */
  const frameText = (frame) => {
    const text = String(frame);
    const fileName = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!fileName || line == null || column == null) return text;
    const file = pathOf(fileName);
    if (!file.startsWith(inside)) return text;
    const found = mapOf(file);
    const entry = found?.map.findEntry(line - 1, column - 1);
    if (!entry?.originalSource) return text;
    const source = fileURLToPath(new URL(entry.originalSource, found.url));
    const where = `${fileName}:${line}:${column}`;
    const at = text.lastIndexOf(where);
    if (at < 0) return text;
    return `${text.slice(0, at)}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${text.slice(at + where.length)}`;
  };
  Error.prepareStackTrace = (error, frames) => {
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = "Error";
    }
    const line = (frame) => {
      try {
        return frameText(frame);
      } catch {
        return String(frame);
      }
    };
    return head + frames.map((frame) => `\n    at ${line(frame)}`).join("");
  };
}
