// tengen driven exactly as Sabaki drives an engine, through Sabaki's own GTP library (@sabaki/gtp):
// attach, sync a game with pipelined `play` commands (ControllerStateTracker.sync), run `analyze`,
// `lz-analyze` and `kata-analyze`, stop each by sending another command as Sabaki does, and let
// `genmove_analyze` play a move. Every analysis line must parse with Sabaki's analysis grammar
// (shared/GTP.md, "Analysis").
//
// Usage: node sabaki_client.js [PATH_TO_TENGEN]   (or TENGEN_BIN=...). Exit status 0 when all is well.

'use strict'

const assert = require('assert')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const TENGEN = process.argv[2] || process.env.TENGEN_BIN
if (!TENGEN) {
  console.error('usage: node sabaki_client.js PATH_TO_TENGEN (or set TENGEN_BIN)')
  process.exit(2)
}

// A guard against hangs, not a performance limit: the machine may be slow and shared.
const HANG_GUARD_MS = 240000
setTimeout(() => {
  console.error('FAIL: the test did not finish (hang?)')
  process.exit(1)
}, HANG_GUARD_MS).unref()

const SIZE = 9
const COLUMNS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.slice(0, SIZE)

function isVertex(v) {
  let m = /^([A-Za-z])(\d+)$/.exec(v)
  if (m == null) return false
  let row = +m[2]
  return COLUMNS.includes(m[1].toUpperCase()) && row >= 1 && row <= SIZE
}

// Sabaki's grammar: a line is `info` chunks; in each, key/value pairs, then `pv` and the moves of the
// variation as the last thing. Leela's dialect has integer win rates (0..10000), KataGo's has floats
// with a decimal point (0..1) and a scoreLead. Returns the candidates, or throws saying what is wrong.
function parseAnalysisLine(line, dialect) {
  assert(line.startsWith('info '), `an update starts with "info": ${line}`)
  // KataGo's ownership (only when asked for, which Sabaki never does) follows the last candidate.
  line = line.split(' ownership ')[0]
  let chunks = line.split(/\s*info\s+/).slice(1)
  assert(chunks.length > 0, `no candidate in ${line}`)
  return chunks.map((chunk, i) => {
    let tokens = chunk.trim().split(/\s+/)
    let pvAt = tokens.indexOf('pv')
    assert(pvAt > 0, `candidate without pv: ${chunk}`)
    let pairs = tokens.slice(0, pvAt)
    assert(pairs.length % 2 === 0, `keys and values do not pair up: ${chunk}`)
    let fields = {}
    for (let k = 0; k < pairs.length; k += 2) fields[pairs[k]] = pairs[k + 1]
    let pv = tokens.slice(pvAt + 1)
    assert(pv.length > 0, `empty pv: ${chunk}`)
    for (let v of pv) assert(isVertex(v) || v === 'pass', `pv holds ${v}: ${chunk}`)
    assert(isVertex(fields.move) || fields.move === 'pass', `bad move in ${chunk}`)
    assert.strictEqual(pv[0], fields.move, `the pv starts with the move: ${chunk}`)
    assert(/^\d+$/.test(fields.visits), `visits is an integer: ${chunk}`)
    assert.strictEqual(fields.order, String(i), `order counts candidates: ${chunk}`)
    for (let key of ['winrate', 'prior', 'lcb']) {
      let v = fields[key]
      assert(v != null, `no ${key} in ${chunk}`)
      if (dialect === 'leela') {
        assert(/^\d+$/.test(v) && +v <= 10000, `${key} is an integer 0..10000: ${chunk}`)
      } else {
        assert(/^-?\d+\.\d+$/.test(v) && +v >= 0 && +v <= 1, `${key} is a float 0..1 with a point: ${chunk}`)
      }
    }
    if (dialect === 'kata') {
      assert(/^-?\d+\.\d+$/.test(fields.scoreLead), `scoreLead is a float with a point: ${chunk}`)
    } else {
      assert(fields.scoreLead == null, `no scoreLead in Leela's dialect: ${chunk}`)
    }
    // What Sabaki shows: the win rate in percent.
    let percent = fields.winrate.includes('.') ? +fields.winrate * 100 : +fields.winrate / 100
    assert(percent >= 0 && percent <= 100)
    return {move: fields.move, visits: +fields.visits, percent, pv}
  })
}

// Runs one analysis command until `updates` info lines have arrived, then stops it by sending
// `stopWith` (pipelined, as Sabaki does) and checks that the stopping command gets its own answer.
async function analyzeAndStop(controller, command, dialect, updates, stopWith, occupied) {
  let lines = []
  let stopping = null
  let started = Date.now()
  let firstAt = null
  let analysis = controller.sendCommand(command, ({line}) => {
    if (!line.startsWith('info')) return
    if (firstAt == null) firstAt = Date.now() - started
    lines.push(line)
    if (lines.length === updates && stopping == null) stopping = controller.sendCommand(stopWith)
  })
  let response = await analysis
  assert(!response.error, `${command.name} failed: ${response.content}`)
  assert(stopping != null, `${command.name} ended by itself after ${lines.length} updates`)
  let answer = await stopping
  assert(!answer.error, `${stopWith.name} after analysis failed: ${answer.content}`)
  for (let line of lines) {
    for (let c of parseAnalysisLine(line, dialect)) {
      assert(!occupied.has(c.move), `${c.move} is already occupied: ${line}`)
    }
  }
  console.log(
    `ok ${command.name} ${command.args.join(' ')}: ${lines.length} updates (first after ${firstAt} ms), ` +
      `stopped by ${stopWith.name} -> "${answer.content}"; best ${parseAnalysisLine(lines[lines.length - 1], dialect)[0].move}`
  )
  return {lines, answer}
}

async function genmoveAnalyze(controller, tracker, name, dialect) {
  let lines = []
  let before = tracker.state.history.length
  let response = await controller.sendCommand({name, args: ['B', '5']}, ({line}) => lines.push(line))
  assert(!response.error, `${name} failed: ${response.content}`)
  let body = lines.filter(l => l !== '' && !l.startsWith('='))
  let last = body[body.length - 1]
  let m = /^play (\S+)$/.exec(last)
  assert(m != null, `${name} ends with a play line, not ${JSON.stringify(last)}`)
  assert(isVertex(m[1]) || m[1] === 'pass' || m[1] === 'resign', `play ${m[1]}`)
  for (let line of body.slice(0, -1)) parseAnalysisLine(line, dialect)
  // Sabaki's state tracker reads the move from the play line; the engine must have played it too.
  let move = m[1].toUpperCase()
  if (move !== 'RESIGN') {
    assert.strictEqual(tracker.state.history.length, before + 1)
    assert.deepStrictEqual(tracker.state.history[before], {name: 'play', args: ['B', move]})
    let toMove = await controller.sendCommand({name: 'gogui-rules_side_to_move'})
    assert.strictEqual(toMove.content, 'white', 'the move was played')
  }
  console.log(`ok ${name}: ${body.length - 1} updates, then "${last}"`)
  return move
}

async function session(extraArgs, initialCommands) {
  let controller = new Controller(TENGEN, ['gtp', '--threads', '1', '--seed', '1', '--playouts', '300', ...extraArgs])
  let tracker = new ControllerStateTracker(controller)
  let stderr = []
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()
  try {
    // What Sabaki asks when it attaches an engine, then the user's initial commands.
    for (let name of ['name', 'version', 'protocol_version', 'list_commands']) {
      let r = await controller.sendCommand({name})
      assert(!r.error, `${name}: ${r.content}`)
    }
    for (let known of ['analyze', 'lz-analyze', 'kata-analyze', 'genmove_analyze']) {
      assert(await tracker.knowsCommand(known), `list_commands lists ${known}`)
    }
    for (let c of initialCommands) {
      let r = await controller.sendCommand(c)
      assert(!r.error, `${c.name}: ${r.content}`)
    }

    // Sync a short game the way Sabaki does: komi, boardsize, then clear_board and every move pipelined.
    let history = [
      ['B', 'E5'], ['W', 'C3'], ['B', 'G3'], ['W', 'C6'], ['B', 'G6'], ['W', 'D4']
    ].map(([c, v]) => ({name: 'play', args: [c, v]}))
    await tracker.sync({komi: 6.5, boardsize: [SIZE, SIZE], history})
    let occupied = new Set(history.map(c => c.args[1]))
    let board = await controller.sendCommand({name: 'gogui-rules_board'})
    assert.strictEqual(board.content.split('\n').length, SIZE, board.content)
    assert.strictEqual((board.content.match(/[XO]/g) || []).length, history.length, 'every synced stone is on the board')

    // Sabaki stops analysis with protocol_version, Lizzie with name.
    await analyzeAndStop(controller, {name: 'analyze', args: ['B', '10']}, 'leela', 3, {name: 'protocol_version'}, occupied)
    await analyzeAndStop(controller, {name: 'lz-analyze', args: ['W', 'interval', '10']}, 'leela', 3, {name: 'name'}, occupied)
    await analyzeAndStop(controller, {name: 'kata-analyze', args: ['B', '10']}, 'kata', 3, {name: 'protocol_version'}, occupied)
    let {lines} = await analyzeAndStop(
      controller, {name: 'kata-analyze', args: ['10', 'ownership', 'true']}, 'kata', 2, {name: 'protocol_version'}, occupied
    )
    let own = lines[0].split(' ownership ')[1].trim().split(/\s+/)
    assert.strictEqual(own.length, SIZE * SIZE, 'ownership has one value per point')
    for (let v of own) assert(/^-?\d+\.\d+$/.test(v) && Math.abs(+v) <= 1, `ownership value ${v}`)
    // A command pipelined right behind the analysis, before the first update, is not lost either.
    let a = controller.sendCommand({name: 'lz-analyze', args: ['B', '50']})
    let b = controller.sendCommand({name: 'protocol_version'})
    let [ra, rb] = await Promise.all([a, b])
    assert(!ra.error && rb.content === '2', 'an analysis stopped at once still ends cleanly')
    console.log('ok lz-analyze stopped before its first update')

    await genmoveAnalyze(controller, tracker, 'genmove_analyze', 'leela')
    await controller.sendCommand({name: 'undo'})
    tracker.state.history.length--
    await genmoveAnalyze(controller, tracker, 'kata-genmove_analyze', 'kata')

    for (let line of stderr) {
      assert(!/^(=|\?|info|play)/.test(line), `stderr line that Lizzie would take for a response: ${line}`)
    }
  } finally {
    await controller.stop()
  }
}

async function main() {
  await session([], [])
  // Sabaki users choose the variant with an initial command (or the command line).
  await session([], [{name: 'tengen-rules', args: ['stones']}])
  await session(['--rules', 'stoical'], [])
  console.log('sabaki client test: all passed')
}

main().catch(err => {
  console.error('FAIL:', err && err.stack ? err.stack : err)
  process.exit(1)
})
