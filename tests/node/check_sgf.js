#!/usr/bin/env node
// Reads every SGF of a `tengen selfplay` / `tengen match` output directory with Sabaki's own SGF
// parser (@sabaki/sgf) and checks it against the run's results.jsonl and run.json: one game tree,
// FF[4] GM[1], the board size, KM, RU with the rules string, PB/PW/DT, the result, and the number of
// moves, every move on the board. Exits 1 (listing the problems) if anything is off.
//
// Usage: node check_sgf.js DIR

'use strict'

const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node check_sgf.js DIR')
  process.exit(2)
}

const problems = []
const problem = (file, text) => problems.push(`${file}: ${text}`)

const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'))
const results = fs
  .readFileSync(path.join(dir, 'results.jsonl'), 'utf8')
  .split('\n')
  .filter(line => line.trim() !== '')
  .map(line => JSON.parse(line))

const listed = new Set(results.map(r => r.sgf))
for (const file of fs.readdirSync(dir)) {
  if (file.endsWith('.sgf') && !listed.has(file)) problem(file, 'not in results.jsonl')
}

// The one value of a root property, or undefined.
const one = (data, key) => (data[key] && data[key].length === 1 ? data[key][0] : undefined)

let moves = 0
for (const r of results) {
  const file = r.sgf
  let trees
  try {
    trees = sgf.parseFile(path.join(dir, file))
  } catch (e) {
    problem(file, `Sabaki's parser fails: ${e.message}`)
    continue
  }
  if (trees.length !== 1) {
    problem(file, `${trees.length} game trees`)
    continue
  }
  const root = trees[0].data
  const expect = (key, value) => {
    const got = one(root, key)
    if (got !== value) problem(file, `${key} is ${JSON.stringify(got)}, expected ${JSON.stringify(value)}`)
  }
  expect('FF', '4')
  expect('GM', '1')
  expect('SZ', String(run.size))
  expect('RU', run.rules)
  expect('RE', r.result)
  for (const key of ['KM', 'PB', 'PW', 'DT']) {
    if (one(root, key) === undefined) problem(file, `no ${key}`)
  }

  // The main line: each node holds at most one move; a pass is an empty value.
  let count = 0
  let node = trees[0]
  for (;;) {
    for (const color of ['B', 'W']) {
      if (node.data[color] === undefined) continue
      count++
      const value = node.data[color][0]
      if (value !== '') {
        const [x, y] = sgf.parseVertex(value)
        if (!(x >= 0 && y >= 0 && x < run.size && y < run.size)) {
          problem(file, `move ${count} (${color}[${value}]) is off the board`)
        }
      }
    }
    if (node.children.length === 0) break
    if (node.children.length > 1) problem(file, 'variations in a game record')
    node = node.children[0]
  }
  if (count !== r.moves) problem(file, `${count} moves, results.jsonl says ${r.moves}`)
  moves += count
}

for (const p of problems) console.error(p)
console.log(`${results.length} games, ${moves} moves read by @sabaki/sgf: ${problems.length} problems`)
process.exit(problems.length === 0 ? 0 : 1)
