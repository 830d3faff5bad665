"""The store and the query for agents: the interface layer next to the CLI.

- :mod:`.tools`: read-only tools over a store (list documents, outline, section text, page text,
  navigate), bounded answers and typed failures, free of any agent SDK (:class:`StoreTools`);
- :mod:`.query_tool`: the query as one OpenAI-style strict function tool (:func:`tool_schema`,
  :func:`run_tool`);
- :mod:`.mcp_server`: those tools served over MCP (``treebuild mcp``); it imports the MCP SDK (the
  ``treebuild[mcp]`` extra), so it is not imported here.
"""

from __future__ import annotations

from .query_tool import TOOL_NAME, ToolArguments, run_tool, tool_schema
from .tools import StoreTools, ToolFailure, ToolLimits, narrow, parse_pages

__all__ = ["StoreTools", "ToolFailure", "ToolLimits", "narrow", "parse_pages", "TOOL_NAME", "ToolArguments",
           "tool_schema", "run_tool"]
