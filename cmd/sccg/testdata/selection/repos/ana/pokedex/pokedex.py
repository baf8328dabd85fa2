import os

import requests

BASE = "https://api.pokedata.dev/api/v2"


class Pokedex:
    def __init__(self, nombre):
        self.nombre = nombre
        try:
            self.datos = self.obtener_pokemon(nombre)
        except Exception:
            self.datos = {}

    def obtener_pokemon(self, nombre):
        """Busca un pokemon por su nombre en la PokeData."""
        r = requests.get(f"{BASE}/pokemon/{nombre}", timeout=10)
        return r.json()

    def mostrar(self):
        print(self.nombre, self.datos.get("weight"))


if __name__ == "__main__":
    os.system("clear")
    Pokedex(input("Pokemon: ")).mostrar()
