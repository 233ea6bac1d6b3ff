"""Start a grove run by name from Python, with Temporal's own Python SDK and no grove code.

    pip install temporalio
    python start_run.py generate '{"prompt": "Say hi!"}'
    python start_run.py airetry "$(cat examples/inputs/color-game.json)"

The workflow type is the run kind (generate, airetry, agent); it takes exactly ONE argument, a
JSON object described by docs/schemas/<kind>.input.json, and returns one described by
docs/schemas/<kind>.result.json. Prints the result as JSON; a failed run prints
{"status": "failed", "error": ...} and exits 1.
"""
import asyncio
import json
import os
import sys
import uuid

from temporalio.client import Client, WorkflowFailureError


async def main(kind: str, run_input: dict) -> int:
    client = await Client.connect(os.environ.get("TEMPORAL_ADDRESS", "localhost:7233"))
    workflow_id = os.environ.get("GROVE_WORKFLOW_ID", f"{kind}-{uuid.uuid4().hex[:8]}")
    try:
        result = await client.execute_workflow(
            kind,  # the workflow type: generate, airetry or agent
            run_input,  # its one argument
            id=workflow_id,
            task_queue=os.environ.get("GROVE_TASK_QUEUE", "grove"),
        )
    except WorkflowFailureError as err:
        cause = err.cause
        print(json.dumps({"workflowId": workflow_id, "status": "failed", "error": {"message": str(cause), "type": getattr(cause, "type", None)}}))
        return 1
    print(json.dumps({"workflowId": workflow_id, **result}))
    return 0


if __name__ == "__main__":
    code = asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
    sys.stdout.flush()
    # Exit without interpreter finalization: the SDK's native runtime threads may still be winding
    # down, and finalizing under them can abort the process after the work is done.
    os._exit(code)
