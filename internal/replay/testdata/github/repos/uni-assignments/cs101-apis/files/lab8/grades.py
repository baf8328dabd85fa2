# Lab 8 bonus: letter grades (no API)
def letter(score):
    for cutoff, grade in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= cutoff:
            return grade
    return "F"


print([letter(s) for s in (95, 83, 71, 64, 12)])
