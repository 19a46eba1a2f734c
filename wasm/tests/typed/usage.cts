// The CommonJS view of the Node typings (`require("evodb")` under nodenext resolution).
import evodb = require("evodb");

const db = new evodb.Database({ numIslands: 2 });
const outcome: evodb.AddOutcome = db.add({ codePath: "/f.py", targetCode: "x", metrics: { score: 1 } }, 0);
const info: evodb.Info = db.info();
console.log(outcome.id.length, info.programCount, evodb.policyCheck(["f.py"], "f.py").pass);
