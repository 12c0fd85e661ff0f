#!/usr/bin/env node
// An Uptown engine in JavaScript, speaking uptown-engine-1 (docs/ENGINE_PROTOCOL.md):
// it plays the legal move that touches most tiles of the colour it plays from (groups are
// counted per colour, and fewer groups is a better score), avoids captures, and breaks ties
// with the seed each request brings.
// Run it against uptown's bots:
//   uptown tournament greedy 'neighbour=node examples/engines/neighbour.js' --out runs/js
"use strict";
const readline = require("readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

// A small PRNG (mulberry32) seeded from the request's seed, so an answer depends on the
// request alone.
function random(seedText) {
  let a = 0;
  for (const c of seedText) a = (Math.imul(a, 31) + c.charCodeAt(0)) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// "7 B7" -> "B7", "4 xE8" -> "E8", "pass" -> null.
const squareOf = (move) => (move === "pass" ? null : move.split(" ").pop().replace(/^x/i, "").toUpperCase());

function neighbours(square) {
  const row = square.charCodeAt(0), column = Number(square.slice(1));
  return [[row - 1, column], [row + 1, column], [row, column - 1], [row, column + 1]]
    .filter(([r, c]) => r >= 65 && r <= 73 && c >= 1 && c <= 9)
    .map(([r, c]) => String.fromCharCode(r) + c);
}

function choose(request) {
  const board = {};  // square -> colour, after every move played
  for (const [color, move] of request.moves) {
    const square = squareOf(move);
    if (square) board[square] = color;
  }
  const rand = random(String(request.seed));
  let best = null, bestValue = -Infinity;
  for (const [color, move] of request.legal) {
    const square = squareOf(move);
    let value = rand();  // below 1: only breaks ties
    if (square) {
      value += 2 * neighbours(square).filter((s) => board[s] === color).length;
      if (move.includes("x")) value -= 3;
    }
    if (value > bestValue) [best, bestValue] = [[color, move], value];
  }
  return best;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: "uptown-engine-1", name: "neighbour", author: "uptown examples", options: {} });
      break;
    case "ping":
      send({ type: "pong", id: message.id });
      break;
    case "move": {
      const [color, move] = choose(message);
      send({ type: "move", id: message.id, move, color });
      break;
    }
    case "quit":
      process.exit(0);
    default:
      send({ type: "error", id: message.id ?? null, message: `unknown message type ${message.type}` });
  }
});
lines.on("close", () => process.exit(0));
