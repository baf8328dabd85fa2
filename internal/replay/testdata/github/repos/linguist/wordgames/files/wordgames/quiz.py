import random

from wordgames.words import define

WORDS = ["ephemeral", "ubiquitous", "serendipity", "laconic", "quixotic", "mellifluous"]


def play(rounds=5):
    score = 0
    for _ in range(rounds):
        word = random.choice(WORDS)
        defs = define(word)
        if not defs:
            continue
        choices = random.sample([w for w in WORDS if w != word], 2) + [word]
        random.shuffle(choices)
        print("\nWhich word means:", defs[0])
        for i, c in enumerate(choices, 1):
            print(f"  {i}) {c}")
        if choices[int(input("> ")) - 1] == word:
            score += 1
            print("correct!")
        else:
            print("nope, it was", word)
    print(f"\nscore: {score}/{rounds}")


if __name__ == "__main__":
    play()
