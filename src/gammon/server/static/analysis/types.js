// @ts-check
// The shapes the analysis board reads: the replay steps the page embeds
// (gammon.server.analysis.replay) and the analysis JSON (docs/analysis.md).

/**
 * @typedef {object} Step one step of the replay (a move, a roll that could not be played, a
 *   cube action, a resignation, a game's start or end)
 * @property {string} kind start | move | dance | rolloff (an opening roll not played: a tie,
 *   or the Greek variants' roll for who starts) | double | take | drop | beaver | raccoon |
 *   resign | accept | reject | end
 * @property {number} i the record's action index (-1 before the first action)
 * @property {number | null} r the action index of the roll played by this move
 * @property {number} g the game number
 * @property {number | null} p who acted (the winner, for an end)
 * @property {string} text the move played, or the roll that could not be played
 * @property {number[][]} board each seat's checkers in its own numbering (0 off, 25 bar)
 * @property {number[][] | null} pinned
 * @property {number[] | null} waiting
 * @property {{seat: number, values: number[]} | null} dice
 * @property {{value: number, owner: number | null, offer: {value: number, by: number} | null}} cube
 * @property {number[]} score
 * @property {boolean} crawford
 * @property {number} [points] the points won (an end)
 * @property {number} [level] the resignation offered (a resign)
 */

/**
 * @typedef {object} Candidate
 * @property {string} move
 * @property {number} equity
 * @property {number} cubeless
 * @property {number} win
 * @property {number} plies
 */

/**
 * @typedef {object} CubeEquities
 * @property {number} no_double
 * @property {number} double_take
 * @property {number} double_pass
 * @property {number | null} double_beaver
 * @property {string} action
 * @property {number} win
 * @property {number} plies
 */

/**
 * @typedef {object} Decision
 * @property {number} game
 * @property {number} action_index
 * @property {number} ply
 * @property {number} player
 * @property {string} kind checker | cube | response
 * @property {string | null} dice
 * @property {string} played
 * @property {string} best
 * @property {number} equity_played
 * @property {number} equity_best
 * @property {number} error
 * @property {string} mark none | doubtful | error | blunder
 * @property {Candidate[]} candidates
 * @property {CubeEquities | null} cube
 * @property {string} xgid
 */

/**
 * @typedef {object} RollLuck
 * @property {number} action_index
 * @property {number} player
 * @property {string} dice
 * @property {number} equity
 * @property {number} average
 * @property {number} luck
 * @property {number} points
 */

/**
 * @typedef {object} GraphPoint
 * @property {number} game
 * @property {number} action_index
 * @property {number} player
 * @property {number} win player 0's cubeless chance to win the game
 * @property {number} equity player 0's normalised cubeful equity
 */

/**
 * @typedef {object} PlayerStats
 * @property {number} player
 * @property {string} name
 * @property {number} decisions
 * @property {number} doubtful
 * @property {number} errors
 * @property {number} blunders
 * @property {number} pr
 * @property {number} error_rate
 * @property {number} luck
 * @property {number} luck_rate
 */

/**
 * @typedef {object} GameAnalysis
 * @property {number} number
 * @property {string} [variant] the game's variant (a tavli match changes it from game to game)
 * @property {string | null} [engine] bgsage | net; null: no engine judged this game
 * @property {Decision[]} decisions
 * @property {RollLuck[]} luck
 * @property {GraphPoint[]} graph
 */

/**
 * @typedef {object} XgDecision XG's own analysis of a decision (an imported .xg file that
 *   carries it), on the action index gammon's decision there has
 * @property {number} action_index
 * @property {number} game
 * @property {number} ply
 * @property {number} player
 * @property {string} kind checker | cube | response
 * @property {number | null} level XG's evaluation level (0-6: 1-7 ply, 1000-1002: XG Roller(+/++))
 * @property {string} best XG's best move, or double | no double | take | drop
 * @property {string | null} played
 * @property {number | null} error XG's error of the choice played (>= 0)
 * @property {boolean | null} agree whether gammon names the same best choice (null: gammon judged none)
 * @property {{move: string, equity: number, level: number | null}[]} [candidates] best first
 * @property {number} [equity_best]
 * @property {number} [no_double] the doubler's
 * @property {number} [double_take]
 * @property {number} [double_pass]
 * @property {string} [action] XG's right action
 */

/**
 * @typedef {object} Analysis
 * @property {string[]} players
 * @property {number} match_length
 * @property {string} [engine] bgsage (absent in older analyses) | net | mixed (tavli: game by game)
 * @property {string} [luck_unit] match (match winning chance) | points
 * @property {string} level
 * @property {number} plies
 * @property {PlayerStats[]} totals
 * @property {{player: number, games: number, result: number, luck: number, adjusted: number}[]} luck_adjusted
 * @property {GameAnalysis[]} games
 * @property {{decisions: XgDecision[], compared: number, agree: number, levels: number[]}} [xg]
 *   XG's own analysis, for an imported .xg file that carries it
 */

/**
 * @typedef {object} StepInfo what the analysis says about one step
 * @property {Decision[]} decisions
 * @property {RollLuck | null} luck
 * @property {GraphPoint | null} point
 * @property {string} mark the worst mark of its decisions ("none" without any)
 * @property {boolean} cubeError whether a cube decision or answer there lost equity (a mark)
 * @property {boolean} notAnalysed whether its game is one no engine judged (a tavli game)
 * @property {XgDecision[]} xg XG's own analysis of its decisions (an imported .xg file)
 */

export {};
