import os

import requests


def main():
    # prints first pokemon
    r = requests.get("https://pokeapi.co/api/v2/pokemon/bulbasaur", timeout=10)
    # checks the answer
    if r.status_code != 200:
        return None
    data = r.json()
    # Clears the terminal
    os.system("clear")
    # prints the name and the weight
    print(data["name"], data["weight"])
    # returns everything
    return data


def show(names):
    # Get every pokemon of the list, one per line
    r = requests.get(f"https://pokeapi.co/api/v2/pokemon/{names[0]}", timeout=10)
    return f"{'\n'.join(names)}: {r.status_code}"
