// The position page's IDs written in the browser (static/position/ids.js) are the server's
// (gammon.server.positions, gammon.notation): tests/js/fixtures/position_ids.json holds the
// server's setups with their XGID, Position ID and Match ID, and
// tests/server/test_position_api.py checks that the file is what the server writes today.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { matchId, positionId, setupPositionId, shareLink, xgid } from "../../src/gammon/server/static/position/ids.js";

const cases = JSON.parse(readFileSync(new URL("./fixtures/position_ids.json", import.meta.url), "utf-8"));

test("the IDs of every fixture are the server's", () => {
  assert.ok(cases.length >= 7);
  for (const s of cases) {
    assert.equal(setupPositionId(s), s.position_id, JSON.stringify(s.board));
    assert.equal(matchId(s), s.match_id, s.match_id);
    assert.equal(xgid(s, s.xgid !== null), s.xgid);
  }
});

test("the starting position's Position ID is gnubg's", () => {
  const start = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0];
  assert.equal(positionId(start, start), "4HPwATDgc/ABMA");
});

test("the share link names the variant, the Position ID and the Match ID", () => {
  const link = new URL(shareLink(cases[0], "https://example.org"));
  assert.equal(link.pathname, "/analysis");
  assert.equal(link.searchParams.get("pos"), cases[0].position_id);
  assert.equal(link.searchParams.get("match"), cases[0].match_id);
  assert.equal(link.searchParams.get("variant"), "standard");
});
