import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import express, { Router } from "express";
import { sendError } from "./errors.js";

export const MANIFEST_CACHE_CONTROL = "public, max-age=300, must-revalidate";

/**
 * GET /manifests/<file> (subfolders too) from the world's manifest folder, with an ETag,
 * 304 on If-None-Match and a short revalidating cache. Nothing outside the folder is reachable:
 * `..` segments (plain or percent-encoded) and dotfiles answer 404, and only regular files are
 * served: a symbolic link anywhere on the way (to a file outside the folder or in it) is 404 too.
 */
export function manifestRoutes(manifestDir: string) {
  const root = path.resolve(manifestDir);
  const router = Router();
  // The folder's own real path, found once (it may itself be a link); looked for again after a failure.
  let realRoot: Promise<string> | undefined;
  const realRootOnce = () => {
    if (!realRoot) (realRoot = realpath(root)).catch(() => (realRoot = undefined));
    return realRoot;
  };
  router.use(
    "/manifests",
    (req, res, next) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(req.path);
      } catch {
        return sendError(res, 400, "BAD_PATH", "The path is not valid");
      }
      const target = path.resolve(root, "." + path.posix.normalize("/" + decoded));
      const inside = target === root || target.startsWith(root + path.sep);
      if (!inside || decoded.includes("\0") || decoded.split("/").some((seg) => seg === ".." || seg.startsWith("."))) {
        return sendError(res, 404, "NOT_FOUND", "No such manifest");
      }
      // The origin answers a conditional request by its validators alone: a request's no-cache
      // is addressed to caches on the way (and Node's fetch adds it to every If-None-Match).
      delete req.headers["cache-control"];
      delete req.headers.pragma;
      regularFileInside(root, realRootOnce(), target).then(
        (ok) => (ok ? next() : sendError(res, 404, "NOT_FOUND", "No such manifest")),
        () => sendError(res, 404, "NOT_FOUND", "No such manifest"),
      );
    },
    express.static(root, {
      index: false,
      dotfiles: "deny",
      redirect: false,
      etag: true,
      lastModified: true,
      setHeaders: (res) => res.setHeader("Cache-Control", MANIFEST_CACHE_CONTROL),
    }),
    (_req, res) => sendError(res, 404, "NOT_FOUND", "No such manifest"),
  );
  return router;
}

/**
 * Whether `target` is a regular file reached from `root` through no symbolic link: its real path
 * is the one asked for (the folder's own real path, which may itself be a link, taken as it is).
 */
async function regularFileInside(root: string, realRoot: Promise<string>, target: string): Promise<boolean> {
  const [realTop, realTarget, st] = await Promise.all([realRoot, realpath(target), lstat(target)]);
  return st.isFile() && realTarget === path.join(realTop, path.relative(root, target));
}
