; ModuleID = 'jit_f'
source_filename = "jit_f"
