from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from agent.tools import TOOLS

SYSTEM = (
    "You are a travel planner. Always check hotel availability with the tools before "
    "recommending a hotel, and give prices in the user's currency."
)


def build_agent(model="gpt-4o-mini"):
    llm = ChatOpenAI(model=model, temperature=0)
    return create_react_agent(llm, TOOLS, state_modifier=SYSTEM)


if __name__ == "__main__":
    agent = build_agent()
    out = agent.invoke({"messages": [("user", "3 nights in Porto from 2026-12-04, 2 adults, cheap but nice")]})
    print(out["messages"][-1].content)
