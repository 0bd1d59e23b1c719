// A season, a club night and a cup run by a program written against the TypeScript client
// generated from the live schema (openapi-typescript types, openapi-fetch): no hand-written
// request, every path, parameter and body checked by `tsc` against the schema.
//
// `make api-clients` generates schema.d.ts beside this file, type-checks both and compiles
// this one; tests/api/clients/test_typescript_client.py runs it against a live server with
// a club and two tokens made for it: CLABBER_URL, CLABBER_CLUB, CLABBER_SECRETARY_TOKEN,
// CLABBER_SCORER_TOKEN. It exits 0 when every step answered as expected.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

// Node's own, declared here rather than with @types/node (one dependency fewer).
declare const process: { env: Record<string, string | undefined> };

type Schemas = components["schemas"];
type Game = Schemas["Game"];

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const baseUrl = env("CLABBER_URL");
const club_slug = env("CLABBER_CLUB");
const connect = (token: string) =>
  createClient<paths>({ baseUrl, headers: { Authorization: `Token ${token}` } });
const secretary = connect(env("CLABBER_SECRETARY_TOKEN"));
const scorer = connect(env("CLABBER_SCORER_TOKEN"));
const club = { club_slug };

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`not as expected: ${what}`);
}

/** The body of an answer with the expected status (the problem's text otherwise). */
async function ok<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  status: number,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.status !== status || data === undefined) {
    throw new Error(`${response.url}: ${response.status}, not ${status}: ${JSON.stringify(error)}`);
  }
  return data;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function deal(a: number): Schemas["DealInputRequest"] {
  return { maker: "A", trump: "hearts", points: { A: a, B: 152 - a }, last_trick: "A" };
}

/** Deals (side A winning each) until the game is over, each with its Idempotency-Key. */
async function playOut(game_id: number, key: string, a = 142): Promise<Game> {
  for (let number = 1; number < 60; number++) {
    await ok(
      scorer.POST("/api/clubs/{club_slug}/games/{game_id}/deals/", {
        params: { path: { ...club, game_id }, header: { "Idempotency-Key": `${key}-${number}` } },
        body: deal(a),
      }),
      201,
    );
    const game = await ok(
      scorer.GET("/api/clubs/{club_slug}/games/{id}/", { params: { path: { ...club, id: game_id } } }),
      200,
    );
    if (game.status !== "in_progress") return game;
  }
  throw new Error(`game ${game_id} never ended`);
}

async function newPlayers(names: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const player = await ok(
      secretary.POST("/api/clubs/{club_slug}/players/", { params: { path: club }, body: { name } }),
      201,
    );
    ids.push(player.id);
  }
  return ids;
}

async function newDivision(name: string, slug: string): Promise<Schemas["Division"]> {
  const season = await ok(
    secretary.POST("/api/clubs/{club_slug}/seasons/", {
      params: { path: club },
      body: { name, slug, start_date: "2027-01-04" },
    }),
    201,
  );
  return ok(
    secretary.POST("/api/clubs/{club_slug}/divisions/", {
      params: { path: club },
      body: { season: season.id, name: "Premier", slug: "premier", ruleset: "clabber" },
    }),
    201,
  );
}

async function newTeams(division: number, players: number[]): Promise<Schemas["Team"][]> {
  const teams: Schemas["Team"][] = [];
  for (const [name, pair] of [
    ["Aces", players.slice(0, 2)],
    ["Jacks", players.slice(2, 4)],
  ] as const) {
    teams.push(
      await ok(
        secretary.POST("/api/clubs/{club_slug}/teams/", {
          params: { path: club },
          body: { division, name, players: [...pair] },
        }),
        201,
      ),
    );
  }
  return teams;
}

async function season(): Promise<void> {
  const division = await newDivision("Winter 2027", "winter-2027");
  const venue = await ok(
    secretary.POST("/api/clubs/{club_slug}/venues/", {
      params: { path: club },
      body: { name: "Club room", tables: 4 },
    }),
    201,
  );
  const players = await newPlayers(["Ann", "Bob", "Cy", "Di"]);
  const [aces, jacks] = await newTeams(division.id, players);
  await ok(
    secretary.POST("/api/clubs/{club_slug}/schedule-configs/", {
      params: { path: club },
      body: { division: division.id, format: "round_robin", weekday: 0, venues: [venue.id] },
    }),
    201,
  );
  let run = await ok(
    secretary.POST("/api/clubs/{club_slug}/schedule-runs/", {
      params: { path: club, header: { "Idempotency-Key": "run-1" } },
      body: { division: division.id },
    }),
    202,
  );
  for (let poll = 0; poll < 100 && run.state !== "done" && run.state !== "failed"; poll++) {
    await sleep(200);
    run = await ok(
      secretary.GET("/api/clubs/{club_slug}/schedule-runs/{id}/", {
        params: { path: { ...club, id: run.id } },
      }),
      200,
    );
  }
  check(run.state === "done", `the schedule run is done (${run.message})`);
  const fixtures = await ok(
    secretary.GET("/api/clubs/{club_slug}/fixtures/", {
      params: { path: club, query: { division: division.id, round_number: 1 } },
    }),
    200,
  );
  check(fixtures.count === 1, "one fixture in round 1");
  const fixture = fixtures.results[0];
  const [home, away] = fixture.home === aces.id ? [aces, jacks] : [jacks, aces];

  const start: Schemas["GameCreateRequest"] = {
    division: division.id,
    fixture: fixture.id,
    sides: { A: home.id, B: away.id },
    seats: [home.players[0], away.players[0], home.players[1], away.players[1]],
  };
  const begin = () =>
    scorer.POST("/api/clubs/{club_slug}/games/", {
      params: { path: club, header: { "Idempotency-Key": "game-1" } },
      body: start,
    });
  const game = await ok(begin(), 201);
  check((await ok(begin(), 201)).id === game.id, "a retried start answers the same game");
  const finished = await playOut(game.id, "season", 100);
  check(finished.status === "finished", "the game is finished");
  const confirmed = await ok(
    secretary.POST("/api/clubs/{club_slug}/games/{id}/confirm/", {
      params: { path: { ...club, id: game.id } },
    }),
    200,
  );
  check(confirmed.status === "confirmed", "the club admin confirmed the game");
  const table = await ok(
    scorer.GET("/api/clubs/{club_slug}/standings/{id}/", {
      params: { path: { ...club, id: division.id } },
    }),
    200,
  );
  check(table.rows[0].team_id === home.id, "the home side (side A) leads the table");
  check(table.rows[0].matches_won === 1, "with one match won");
}

async function clubNight(): Promise<void> {
  const players = await newPlayers(["N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"]);
  const event = await ok(
    secretary.POST("/api/clubs/{club_slug}/events/", {
      params: { path: club },
      body: {
        name: "Tuesday night",
        date: "2027-01-12",
        rules: "clabber",
        rounds: 1,
        round_kind: "deals",
        round_deals: 2,
        entry_fee_cents: 500,
      },
    }),
    201,
  );
  const night = { ...club, event_id: event.id };
  for (const player of players) {
    await ok(
      secretary.POST("/api/clubs/{club_slug}/events/{event_id}/entries/", {
        params: { path: night },
        body: { player, paid: true },
      }),
      201,
    );
  }
  let round = await ok(
    secretary.POST("/api/clubs/{club_slug}/events/{event_id}/rounds/", { params: { path: night } }),
    201,
  );
  for (let poll = 0; poll < 100 && round.status === "drawing"; poll++) {
    await sleep(200);
    round = await ok(
      secretary.GET("/api/clubs/{club_slug}/events/{event_id}/rounds/{id}/", {
        params: { path: { ...night, id: round.id } },
      }),
      200,
    );
  }
  check(round.status === "playing", `the round is drawn (${round.message})`);
  const tables = (
    await ok(
      scorer.GET("/api/clubs/{club_slug}/events/{event_id}/tables/", {
        params: { path: night, query: { round: 1 } },
      }),
      200,
    )
  ).results;
  check(tables.length === 2, "two tables of four");
  for (const table of tables) {
    check(table.game !== null, "each table has its game");
    const game = await playOut(table.game, `night-${table.number}`);
    check(game.status === "finished", "the table's game is finished");
  }
  const ranking = await ok(
    scorer.GET("/api/clubs/{club_slug}/events/{id}/ranking/", {
      params: { path: { ...club, id: event.id } },
    }),
    200,
  );
  const winners = new Set(
    tables.flatMap((t) => t.seats.filter((s) => s.side === "A").map((s) => s.player)),
  );
  check(ranking.lines.length === 8 && !ranking.live, "eight players ranked, nothing live");
  check(
    ranking.lines.slice(0, 4).every((line) => winners.has(line.player)),
    "the four who won their table rank first",
  );
  const prizes = await ok(
    scorer.GET("/api/clubs/{club_slug}/events/{id}/prizes/", {
      params: { path: { ...club, id: event.id } },
    }),
    200,
  );
  check(prizes.takings_cents === 8 * 500, "eight entry fees taken");
}

async function cup(): Promise<void> {
  const division = await newDivision("Cup season", "cup-season");
  const teams = await newTeams(division.id, await newPlayers(["C1", "C2", "C3", "C4"]));
  const made = await ok(
    secretary.POST("/api/clubs/{club_slug}/cups/", {
      params: { path: club },
      body: { name: "Knockout", teams: teams.map((t) => t.id), seeding: "list" },
    }),
    201,
  );
  const drawn = await ok(
    secretary.POST("/api/clubs/{club_slug}/cups/{id}/draw/", {
      params: { path: { ...club, id: made.id } },
    }),
    200,
  );
  check(drawn.status === "drawn", "the cup is drawn");
  const ties = await ok(
    scorer.GET("/api/clubs/{club_slug}/cups/{cup_id}/ties/", {
      params: { path: { ...club, cup_id: made.id } },
    }),
    200,
  );
  const final = ties.results[0];
  check(ties.count === 1 && final.status === "ready", "the final is ready");
  const tie = { ...club, cup_id: made.id, id: final.id };
  const game = await ok(
    secretary.POST("/api/clubs/{club_slug}/cups/{cup_id}/ties/{id}/start/", {
      params: { path: tie },
    }),
    201,
  );
  check((await playOut(game.id, "final")).status === "finished", "the final's game is finished");
  await ok(
    secretary.POST("/api/clubs/{club_slug}/games/{id}/confirm/", {
      params: { path: { ...club, id: game.id } },
    }),
    200,
  );
  const decided = await ok(
    scorer.GET("/api/clubs/{club_slug}/cups/{cup_id}/ties/{id}/", { params: { path: tie } }),
    200,
  );
  check(decided.status === "decided" && decided.winner === decided.home, "home won the final");
  const done = await ok(
    scorer.GET("/api/clubs/{club_slug}/cups/{id}/", { params: { path: { ...club, id: made.id } } }),
    200,
  );
  check(done.status === "finished" && done.champion === decided.winner, "the cup has its champion");
}

for (const [name, workflow] of [
  ["season", season],
  ["club night", clubNight],
  ["cup", cup],
] as const) {
  await workflow();
  console.log(`ok: ${name}`);
}
